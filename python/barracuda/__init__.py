"""Barracuda: a lattice Boltzmann CFD solver for GPUs and CPUs, driven from Python.

A case is what ``barracuda run`` reads: a TOML file, or the same tables as a dict::

    import barracuda
    sim = barracuda.Simulation({
        "domain": {"size": [128, 64, 1], "periodic": [False, False, True]},
        "model": {"lattice": "D2Q9", "collision": "trt", "viscosity": 0.02},
        "boundary": {"x_min": {"type": "velocity", "velocity": [0.05, 0]},
                     "x_max": {"type": "pressure", "density": 1.0},
                     "y_min": {"type": "wall"}, "y_max": {"type": "wall"}},
    })
    sim.step(2000)
    u = sim.velocity()          # numpy, shape (128, 64, 1, 3), u[x, y, z, component]

Fields are numpy arrays indexed (x, y, z[, component]); stepping runs in C++ with the
GIL released; a diverging run raises DivergenceError with the step, cell and field;
a bad case raises CaseError (a ValueError) with the message ``barracuda run`` prints.
docs/python.md has the whole guide.
"""
from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional, Union

import numpy as np

from . import _core
from ._toml import dumps as case_toml
from ._toml import value_text as _value_text

__all__ = [
    "Simulation",
    "CaseError",
    "ResourceError",
    "OutputError",
    "DivergenceError",
    "bench",
    "validate",
    "validation_cases",
    "default_case",
    "gpus",
    "cuda_built",
    "read_vti",
    "case_toml",
    "NODE_KINDS",
    "FACES",
]

CaseError = _core.CaseError
"""A case, key or option that is refused (a ValueError): the message names the key, the value and what is allowed."""
ResourceError = _core.ResourceError
"""The machine cannot run the case: no GPU for backend="cuda", not enough memory (a RuntimeError)."""
OutputError = _core.OutputError
"""A file could not be written or read (an OSError)."""
DivergenceError = _core.DivergenceError
"""The run became unstable. Attributes: step, cell (x, y, z), field ("density", "velocity",
"temperature", or "density_b": two Shan-Chen components' B) and value; a face expression that went bad gives field "expression" and
cell None. The simulation keeps the diverged state; make a new one."""

#: Values of node_kinds(): what each node is.
NODE_KINDS = {0: "fluid", 1: "solid", 2: "wall face", 3: "velocity face", 4: "pressure face", 5: "outflow face"}
#: The six faces of the box, as the case names them.
FACES = ("x_min", "x_max", "y_min", "y_max", "z_min", "z_max")

PathLike = Union[str, "os.PathLike[str]"]
Case = Union[Mapping[str, Any], PathLike, None]


def _override_list(overrides: Optional[Mapping[str, Any]]) -> list[str]:
    if overrides is None:
        return []
    if not isinstance(overrides, Mapping):
        raise TypeError(f"overrides: expected a dict of key: value, not {type(overrides).__name__}")
    return [f"{key}={_value_text(value, str(key))}" for key, value in overrides.items()]


def _source(case: Case, overrides: Optional[Mapping[str, Any]]) -> "_core.CaseSource":
    if case is None:
        s = _core.CaseSource()
        s.text = _core.default_case()
        s.name = "default case"
    elif isinstance(case, Mapping):
        s = _core.CaseSource()
        s.text = case_toml(case)
        s.name = "case dict"
    elif isinstance(case, (str, os.PathLike)):
        s = _core.CaseSource.of_file(os.fspath(case))
    else:
        raise TypeError(f"case: expected a dict, a path to a TOML file or None (the default case), "
                        f"not {type(case).__name__}")
    s.overrides = _override_list(overrides)
    return s


def _mask(mask: Any) -> np.ndarray:
    m = np.asarray(mask)
    if m.ndim == 2:  # a 2D case's [x, y]
        m = m[:, :, np.newaxis]
    if m.ndim != 3:
        raise CaseError(f"solid mask: {m.ndim} dimensions; expected an array of shape domain.size, [x, y, z]")
    return np.ascontiguousarray(m, dtype=bool)


class Simulation:
    """A case made ready to run: validated, its memory checked and allocated, at step 0.

    Parameters
    ----------
    case:
        The case as a dict of tables (the keys of docs/case-file.md), the path of a TOML
        case file, or None for the built-in default case (a 3D lid-driven cavity).
    overrides:
        ``{"model.tau": 0.8, "boundary.x_min.velocity": [0.05, 0, 0]}``: keys set over the
        case, as ``barracuda run --set`` does.
    backend:
        ``"auto"`` (the GPU when there is one, else the CPU), ``"cpu"`` or ``"cuda"``.
    solid:
        A boolean array of shape ``domain.size`` in (x, y, z) order: extra solid nodes, as
        an obstacle named ``solid_name`` (name it in ``[forces] obstacles`` for its force).

    Raises CaseError (ValueError) for a refused case, ResourceError when it does not fit.
    """

    def __init__(self, case: Case = None, *, overrides: Optional[Mapping[str, Any]] = None,
                 backend: str = "auto", solid: Optional[np.ndarray] = None, solid_name: str = "mask") -> None:
        if solid is None:
            self._sim = _core.Simulation(_source(case, overrides), backend)
        else:
            self._sim = _core.Simulation(_source(case, overrides), backend, _mask(solid), solid_name)

    @classmethod
    def from_file(cls, path: PathLike, overrides: Optional[Mapping[str, Any]] = None, *,
                  backend: str = "auto") -> "Simulation":
        """The case of a TOML file (relative obstacle files are found beside it)."""
        return cls(os.fspath(path), overrides=overrides, backend=backend)

    @classmethod
    def restart(cls, path: PathLike, *, backend: str = "auto") -> "Simulation":
        """The simulation saved by checkpoint(path), at its step, bit for bit."""
        self = cls.__new__(cls)
        self._sim = _core.Simulation.restart(os.fspath(path), backend)
        return self

    # ---- time stepping -------------------------------------------------------------
    @property
    def time(self) -> int:
        """Steps advanced since step 0."""
        return self._sim.time

    def step(self, n: int = 1) -> int:
        """Advances n steps; returns the time. The state is checked (DivergenceError) when the
        steps pass a multiple of ``run.check_interval`` (100 by default), as ``barracuda run``
        checks it: a check reads the whole state, as costly as a step.

        Ctrl-C stops it between chunks of steps (about 0.2 s) with KeyboardInterrupt; the
        simulation is then at a whole step (``time`` says which) and can go on.
        """
        self._sim.step(int(n))
        return self._sim.time

    def run(self, steps: int, callback: Optional[Callable[["Simulation"], Any]] = None,
            every: Optional[int] = None) -> int:
        """Advances ``steps`` steps, checking the state every ``every`` steps (default:
        ``run.check_interval``) and calling ``callback(self)`` after each check. A callback
        may read fields, update values or raise to stop. Returns the time."""
        cb = None if callback is None else (lambda _t: callback(self))
        self._sim.run(int(steps), cb, 0 if every is None else int(every))
        return self._sim.time

    # ---- fields --------------------------------------------------------------------
    def density(self, *, lattice: bool = False) -> np.ndarray:
        """Density, shape (nx, ny, nz), indexed [x, y, z] (solid nodes: 1).

        dtype: the engine's arithmetic type (float32 for FP32 and FP16 storage, float64 for
        FP64) in lattice units. A case in SI units gives kg/m^3 as float64, as ``barracuda
        run`` writes it, unless ``lattice=True``. The array is a view over one buffer with x
        fastest, as the engine stores it: ``np.ascontiguousarray`` gives C order.
        """
        return self._sim.field("rho", lattice)

    def velocity(self, *, lattice: bool = False) -> np.ndarray:
        """Velocity, shape (nx, ny, nz, 3), indexed [x, y, z, component] (solid nodes: 0).

        Types and units as density(): lattice units, or m/s for an SI case. On the GPU it is
        computed there and crosses the bus once, straight into the array.
        """
        return self._sim.field("u", lattice)

    def temperature(self) -> np.ndarray:
        """Temperature of a [thermal] case, shape (nx, ny, nz), float64, in the case's unit."""
        return self._sim.field("theta", False)

    def node_kinds(self) -> np.ndarray:
        """What each node is, shape (nx, ny, nz), uint8: the codes of NODE_KINDS."""
        return self._sim.node_kinds()

    def forces(self) -> dict[str, np.ndarray]:
        """The force on each obstacle named in ``[forces] obstacles`` over the last step, by
        momentum exchange, in lattice units: {name: array([Fx, Fy, Fz])}."""
        return {name: np.array(f) for name, f in self._sim.forces()}

    def observe(self) -> dict[str, float]:
        """max |u|, the density range and mean (lattice units), and for a [thermal] case the
        temperature range (in the case's unit). Two Shan-Chen components: the density keys
        are component A's, with rho_b_min, rho_b_max and mean_density_b beside them; the
        free energy: phi_min and phi_max."""
        return self._sim.observe()

    # ---- changes ---------------------------------------------------------------------
    def set_solid(self, mask: np.ndarray, *, name: str = "mask") -> None:
        """Makes the nodes where ``mask`` is true solid (an obstacle named ``name``), before
        the first step. ``mask`` has the shape ``domain.size`` in (x, y, z) order."""
        self._sim.set_solid(_mask(mask), name)

    def update(self, overrides: Mapping[str, Any]) -> None:
        """Changes values of the running case, as ``--set`` keys: the faces' velocity,
        density and temperature (numbers or expressions), ``force.body`` and the obstacles'
        temperature, heat_flux and power. The state carries on bit for bit; anything else
        (the lattice, the grid, a face's type, the geometry) raises CaseError."""
        self._sim.update(_override_list(overrides))

    def set_boundary_value(self, face: str, *, velocity: Optional[Sequence[Any]] = None,
                           density: Optional[Any] = None, temperature: Optional[Any] = None) -> None:
        """New values on a face (``"x_min"`` ... ``"z_max"``) from the next step on: a
        velocity face's velocity, a pressure face's density, a face's temperature. Values
        are numbers or expressions of x, y, z and t, in the case's units."""
        if face not in FACES:
            raise CaseError(f'set_boundary_value: face = "{face}": expected one of {", ".join(FACES)}')
        changes: dict[str, Any] = {}
        if velocity is not None:
            changes[f"boundary.{face}.velocity"] = list(velocity)
        if density is not None:
            changes[f"boundary.{face}.density"] = density
        if temperature is not None:
            changes[f"boundary.{face}.temperature"] = temperature
        if not changes:
            raise CaseError("set_boundary_value: give velocity, density or temperature")
        self.update(changes)

    def checkpoint(self, path: PathLike) -> None:
        """Saves the state (atomically) with what makes the simulation again:
        Simulation.restart(path) goes on bit for bit."""
        self._sim.checkpoint(os.fspath(path))

    @property
    def info(self) -> dict[str, Any]:
        """The engine: description, backend, device, lattice, size, cells, memory_bytes,
        bytes_per_cell_update, dtype; for an SI case dt and dx (s, m)."""
        return self._sim.info()

    def __repr__(self) -> str:
        i = self.info
        return f"<barracuda.Simulation {i['title']!r}: {i['description']} on {i['device']}, step {self.time}>"


def default_case() -> str:
    """The built-in case's TOML text (what ``Simulation()`` runs)."""
    return _core.default_case()


def gpus() -> list[str]:
    """The GPUs this build can use (empty without the CUDA backend or without a GPU)."""
    return list(_core.gpus())


def cuda_built() -> bool:
    """Whether this build has the CUDA backend."""
    return bool(_core.cuda_built())


def bench(size: Union[int, Sequence[int]] = 128, *, lattice: str = "D3Q19", precision: str = "fp32",
          streaming: str = "two-copy", collision: str = "bgk", steps: Optional[int] = None,
          warmup: Optional[int] = None, backend: str = "auto", copy: bool = True) -> dict[str, Any]:
    """The stream-collide kernel's speed on a periodic box of ``size`` cells per side (or
    [nx, ny, nz]), as ``barracuda bench`` measures it: MLUPS, effective GB/s (the bytes the
    engine moves per cell update) and, with ``copy``, the machine's copy bandwidth measured
    in the same call and the kernel's percentage of it."""
    n = [int(size)] * 3 if isinstance(size, (int, np.integer)) else [int(s) for s in size]
    if lattice.upper() == "D2Q9" and len(n) == 3:
        n[2] = 1
    cells = n[0] * n[1] * n[2]
    cuda = backend == "cuda" or (backend == "auto" and len(gpus()) > 0)
    if steps is None:  # about a second of work at the expected speed
        steps = max(10, int((15e9 if cuda else 3e7) / max(cells, 1)))
    if warmup is None:
        warmup = max(2, steps // 10)
    case = {
        "title": "bench",
        "domain": {"size": n, "periodic": [True, True, True]},
        "model": {"lattice": lattice, "precision": precision, "streaming": streaming,
                  "collision": collision, "tau": 0.6},
        "run": {"steps": int(steps)},
    }
    r = dict(_core.bench_case(case_toml(case), int(steps), int(warmup), backend, bool(copy)))
    r["size"] = n
    if copy and r.get("copy_gbps"):
        r["percent_of_copy"] = 100.0 * r["gbps"] / r["copy_gbps"]
    return r


def validation_cases() -> list[dict[str, Any]]:
    """The validation suite's cases: name, title, citation, what is compared, setups."""
    return list(_core.validation_cases())


def validate(name: str, *, full: bool = False, backend: str = "auto") -> dict[str, Any]:
    """Runs one case of ``barracuda validate`` (short variant unless ``full``) and returns
    its comparisons against the published reference: {name, passed, comparisons: [{what,
    result, reference, error, tolerance, passed}], setup, notes, seconds}."""
    return dict(_core.validate_case(name, bool(full), backend))


_VTK_TYPES = {"Float64": "<f8", "Float32": "<f4", "UInt8": "u1", "Int32": "<i4", "Int64": "<i8", "UInt64": "<u8"}


def read_vti(path: PathLike) -> dict[str, np.ndarray]:
    """The arrays of a .vti file that ``barracuda run`` wrote (binary appended data, raw
    or zlib), each shaped (nx, ny, nz[, components]) and indexed [x, y, z]."""
    import xml.etree.ElementTree as ET

    name = os.fspath(path)
    with open(name, "rb") as f:
        raw = f.read()
    start = raw.find(b"<AppendedData")
    if start < 0:
        raise OutputError(f"{name}: no appended data (not a .vti written by barracuda)")
    mark = raw.index(b"_", raw.index(b">", start)) + 1  # the binary part starts after '_'
    root = ET.fromstring(raw[:start].decode() + "</VTKFile>")
    piece = root.find("ImageData/Piece")
    ext = [int(v) for v in piece.get("Extent").split()]
    cells = piece.find("CellData") is not None  # a piece of a .pvti: cell extent
    shape = tuple(ext[2 * a + 1] - ext[2 * a] + (0 if cells else 1) for a in range(3))
    compressed = root.get("compressor") is not None
    out: dict[str, np.ndarray] = {}
    for a in root.iter("DataArray"):
        at = mark + int(a.get("offset"))
        if compressed:  # vtkZLibDataCompressor: block count, sizes, then the blocks
            (blocks,) = struct.unpack_from("<Q", raw, at)
            sizes = struct.unpack_from(f"<{blocks}Q", raw, at + 24)
            at += 24 + 8 * blocks
            parts = []
            for s in sizes:
                parts.append(zlib.decompress(raw[at:at + s]))
                at += s
            data = b"".join(parts)
        else:
            (nbytes,) = struct.unpack_from("<Q", raw, at)
            data = raw[at + 8:at + 8 + nbytes]
        values = np.frombuffer(data, dtype=np.dtype(_VTK_TYPES[a.get("type")]))
        comps = int(a.get("NumberOfComponents", "1"))
        tail = (comps,) if comps > 1 else ()
        # x fastest in the file: C order (z, y, x), then viewed as [x, y, z].
        v = values.reshape(shape[::-1] + tail)
        out[a.get("Name")] = v.transpose((2, 1, 0, 3) if comps > 1 else (2, 1, 0))
    return out
