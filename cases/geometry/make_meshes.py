#!/usr/bin/env python3
"""The STL files of the example cases, made here so that no mesh is committed
without the means to make it again (python3, standard library only):

  sphere.stl  a UV sphere of radius 1 about the origin, 16 bands of latitude by 32
              of longitude (960 triangles, binary STL; its facets lie within
              1 - cos(pi/32) = 0.5% of the radius from the sphere); cases/stl_sphere.toml
              scales it to 6 cells and moves it onto a duct's centre line.

  python3 cases/geometry/make_meshes.py      (writes next to this script)
"""
import math
import os
import struct


def uv_sphere(radius, rings, segments):
    def at(i, j):
        if i == 0:
            return (0.0, 0.0, radius)
        if i == rings:
            return (0.0, 0.0, -radius)
        th, ph = math.pi * i / rings, 2 * math.pi * (j % segments) / segments
        return (radius * math.sin(th) * math.cos(ph), radius * math.sin(th) * math.sin(ph), radius * math.cos(th))

    triangles = []
    for i in range(rings):
        for j in range(segments):
            if i > 0:
                triangles.append((at(i, j), at(i + 1, j), at(i, j + 1)))
            if i < rings - 1:
                triangles.append((at(i, j + 1), at(i + 1, j), at(i + 1, j + 1)))
    return triangles


def write_binary_stl(path, triangles, header=b"barracuda cases/geometry/make_meshes.py"):
    with open(path, "wb") as f:
        f.write(header.ljust(80, b" "))
        f.write(struct.pack("<I", len(triangles)))
        for a, b, c in triangles:
            f.write(struct.pack("<12fH", 0, 0, 0, *a, *b, *c, 0))


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    write_binary_stl(os.path.join(here, "sphere.stl"), uv_sphere(1.0, 16, 32))
