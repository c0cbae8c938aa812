#!/usr/bin/env python3
"""The geometry files of the example cases, made here so that no file is committed
without the means to make it again (python3, standard library only):

  sphere.stl  a UV sphere of radius 1 about the origin, 16 bands of latitude by 32
              of longitude (960 triangles, binary STL; its facets lie within
              1 - cos(pi/32) = 0.5% of the radius from the sphere); cases/stl_sphere.toml
              scales it to 6 cells and moves it onto a duct's centre line.

  sphere_pack.nrrd  a random pack of spheres (diameter 16 voxels, porosity 0.6, seed 1)
              in a periodic 64^3 image, uint8 labels (1 solid, 0 pore), gzip NRRD;
              cases/porous_voxels.toml (seed 001 Table 6 uses such packs).

  python3 cases/geometry/make_geometry.py      (writes next to this script)
"""
import gzip
import math
import os
import random
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


def write_binary_stl(path, triangles, header=b"barracuda cases/geometry/make_geometry.py"):
    with open(path, "wb") as f:
        f.write(header.ljust(80, b" "))
        f.write(struct.pack("<I", len(triangles)))
        for a, b, c in triangles:
            f.write(struct.pack("<12fH", 0, 0, 0, *a, *b, *c, 0))


def sphere_pack(n, diameter, porosity, seed):
    """Labels of an n^3 periodic image: spheres at random centres, overlapping
    allowed, added until the solid fraction reaches 1 - porosity."""
    rng = random.Random(seed)
    solid = bytearray(n * n * n)
    count, target, r = 0, (1.0 - porosity) * n ** 3, diameter / 2.0
    reach = int(math.ceil(r))
    while count < target:
        c = [rng.uniform(0, n) for _ in range(3)]
        for dz in range(-reach, reach + 1):
            for dy in range(-reach, reach + 1):
                for dx in range(-reach, reach + 1):
                    x, y, z = int(c[0]) + dx, int(c[1]) + dy, int(c[2]) + dz
                    if (x + 0.5 - c[0]) ** 2 + (y + 0.5 - c[1]) ** 2 + (z + 0.5 - c[2]) ** 2 > r * r:
                        continue
                    at = x % n + n * (y % n + n * (z % n))
                    if not solid[at]:
                        solid[at] = 1
                        count += 1
    return bytes(solid)


def write_nrrd(path, labels, n):
    header = ("NRRD0004\n# made by cases/geometry/make_geometry.py\ntype: uint8\ndimension: 3\n"
              f"sizes: {n} {n} {n}\nencoding: gzip\n\n")
    with open(path, "wb") as f:
        f.write(header.encode())
        f.write(gzip.compress(labels, mtime=0))


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    write_binary_stl(os.path.join(here, "sphere.stl"), uv_sphere(1.0, 16, 32))
    write_nrrd(os.path.join(here, "sphere_pack.nrrd"), sphere_pack(64, 16, 0.6, 1), 64)
