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

  rock.vti    a 32^3 pack (diameter 8 voxels, porosity 0.45, seed 3) as VTK image data:
              UInt8 point data, appended raw, zlib blocks, UInt64 headers (as ParaView
              and VTK write it); cases/porous_vti.toml.

  rock.raw    the same pack as a raw binary image: 32^3 uint8 labels, x fastest, no
              header (the case gives dimensions and type); cases/porous_raw.toml.

  rock_slices/slice_NNN.png  the same pack as 32 greyscale PNG slices, 8 bits,
              pore 0 and solid 255 (a segmented CT stack); cases/porous_png_stack.toml.

  python3 cases/geometry/make_geometry.py      (writes next to this script)
"""
import gzip
import math
import os
import random
import struct
import zlib


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


def write_vti(path, labels, n):
    """UInt8 point data in the appended section, one zlib block, UInt64 header."""
    packed = zlib.compress(labels, 6)
    header = struct.pack("<4Q", 1, len(labels), 0, len(packed))
    xml = ('<?xml version="1.0"?>\n<!-- made by cases/geometry/make_geometry.py -->\n'
           '<VTKFile type="ImageData" version="1.0" byte_order="LittleEndian" header_type="UInt64" '
           'compressor="vtkZLibDataCompressor">\n'
           f'<ImageData WholeExtent="0 {n - 1} 0 {n - 1} 0 {n - 1}" Origin="0 0 0" Spacing="1 1 1">\n'
           f'<Piece Extent="0 {n - 1} 0 {n - 1} 0 {n - 1}">\n<PointData Scalars="label">\n'
           '<DataArray type="UInt8" Name="label" format="appended" offset="0"/>\n'
           '</PointData>\n</Piece>\n</ImageData>\n<AppendedData encoding="raw">\n_')
    with open(path, "wb") as f:
        f.write(xml.encode() + header + packed + b"\n</AppendedData>\n</VTKFile>\n")


def png_gray8(width, height, rows):
    """A greyscale 8-bit PNG of the given rows (bytes each)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    raw = b"".join(b"\x00" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def write_png_stack(folder, labels, n):
    os.makedirs(folder, exist_ok=True)
    for z in range(n):
        rows = [bytes(255 * labels[x + n * (y + n * z)] for x in range(n)) for y in range(n)]
        with open(os.path.join(folder, f"slice_{z:03d}.png"), "wb") as f:
            f.write(png_gray8(n, n, rows))


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    write_binary_stl(os.path.join(here, "sphere.stl"), uv_sphere(1.0, 16, 32))
    write_nrrd(os.path.join(here, "sphere_pack.nrrd"), sphere_pack(64, 16, 0.6, 1), 64)
    rock = sphere_pack(32, 8, 0.45, 3)
    write_vti(os.path.join(here, "rock.vti"), rock, 32)
    with open(os.path.join(here, "rock.raw"), "wb") as f:
        f.write(rock)
    write_png_stack(os.path.join(here, "rock_slices"), rock, 32)
