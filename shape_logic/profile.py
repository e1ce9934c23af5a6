"""Per-node timing of a run (`shape-logic run --profile`), after TFDeploy's CLI profiler:
real (wall) and process (user + system CPU) time per node, averaged over the measured
iterations, the most expensive nodes first, then a summary per operator.

Under the executor's threads a node's CPU time is that of all the process's threads while
it runs (its work split over them), except for a node in a parallel branch: its own
thread's, as the other branch runs meanwhile. Nodes of parallel branches overlap in wall
time, so the run's wall time per run is measured apart from the sum over nodes."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class NodeTime:
    name: str
    op: str
    real: float = 0.0
    cpu: float = 0.0
    calls: int = 0


@dataclass
class Profile:
    nodes: dict = field(default_factory=dict)  # node name -> NodeTime
    iterations: int = 1
    data_dependent: dict = field(default_factory=dict)
    wall: float = 0.0  # the measured runs' wall time, whole
    runs: int = 0

    def add_run(self, wall: float):
        self.wall += wall
        self.runs += 1

    def add(self, node, real: float, cpu: float):
        rec = self.nodes.get(node.name)
        if rec is None:
            rec = self.nodes[node.name] = NodeTime(node.name, node.op)
        rec.real += real
        rec.cpu += cpu
        rec.calls += 1

    def finish(self, iterations: int, data_dependent: dict):
        self.iterations = max(iterations, 1)
        self.data_dependent = dict(data_dependent)

    def per_node(self) -> list[NodeTime]:
        """Average time per node over the iterations, most expensive first."""
        out = [NodeTime(r.name, r.op, r.real / r.calls, r.cpu / r.calls, r.calls)
               for r in self.nodes.values()]
        return sorted(out, key=lambda r: -r.real)

    def per_op(self) -> list[tuple[str, int, float, float]]:
        """(op, node count, real, cpu) summed over the op's nodes, most expensive first."""
        acc: dict[str, list] = {}
        for r in self.per_node():
            a = acc.setdefault(r.op, [0, 0.0, 0.0])
            a[0] += 1
            a[1] += r.real
            a[2] += r.cpu
        return sorted(((op, n, re, cp) for op, (n, re, cp) in acc.items()),
                      key=lambda x: -x[2])

    @property
    def total(self) -> float:
        return sum(r.real for r in self.per_node())

    def report(self, top: int = 20) -> str:
        total = self.total or 1e-12
        per_run = f"{self.wall / self.runs * 1e3:.3f} ms per run, " if self.runs else ""
        lines = [(f"profile: {len(self.nodes)} nodes, {per_run}{self.total * 1e3:.3f} ms "
                  f"summed over nodes (average of {self.iterations} after warm-up)"), "",
                 f"{'node':40} {'op':22} {'real ms':>9} {'cpu ms':>9} {'%':>6}"]
        for r in self.per_node()[:top]:
            lines.append(f"{r.name[:40]:40} {r.op[:22]:22} {r.real * 1e3:9.3f} "
                         f"{r.cpu * 1e3:9.3f} {100 * r.real / total:6.1f}")
        if len(self.nodes) > top:
            lines.append(f"... {len(self.nodes) - top} more nodes")
        lines += ["", f"{'op':22} {'nodes':>6} {'real ms':>9} {'cpu ms':>9} {'%':>6}"]
        for op, n, real, cpu in self.per_op():
            lines.append(f"{op[:22]:22} {n:6d} {real * 1e3:9.3f} {cpu * 1e3:9.3f} "
                         f"{100 * real / total:6.1f}")
        if self.data_dependent:
            vals = ", ".join(f"{k}={v}" for k, v in self.data_dependent.items())
            lines += ["", f"data-dependent symbols (unknown until run): {vals}"]
        return "\n".join(lines)
