"""Inter-op parallelism: the independent branches between a fork and a join (an
Inception block's four paths, a SqueezeNet fire module's two expands, ShuffleNet's
pooled shortcut beside its convolutions) run at the same time, one branch per thread.

    items = branch_groups(steps, constants, outputs, cost)   # once, after the rewrites
    for item in items: a Step, or a Group run by run_group

A group is found from its join: a step with two or more inputs made by chains of steps
that each read only the previous one's output (and constants), every chain starting
from the same fork tensor and every tensor inside a chain read by its next step alone.
So a branch needs nothing from another, nor from steps outside the group except the fork
tensor, and nothing outside reads a branch before the join: the group can run where its
first step was, in any interleaving. Branches are taken longest first (`cost`, a
step's multiply-adds, the unit of workers.min_work()).

Frees are assigned again by last use over the items, a group being one (a step between
two of a group's steps in the sequential order now runs after the group): within a
group nothing is freed before the whole group is done, shape checks are made
under a lock (the binder is shared), and if steps fail, the error raised is the one of
the step that comes first in the sequential order, as a sequential run would raise it.
"""
from __future__ import annotations

import dataclasses
import threading

from .exec_rewrite import uses
from .kernels import workers

# branches run at the same time only when the longest is at most this share of the
# group's work: one branch per thread leaves the group as long as its longest branch run
# on one thread (1 / share faster than one thread), while the steps one after the other
# split their own work (~1.6x on 2 threads for convolutions this large). ResNet50's
# projection shortcuts (0.68) one after the other: 72.1 -> 68.1 ms a run (min of 10,
# interleaved); Inception v2's blocks (0.43-0.84) about even either way
LONGEST_SHARE = 0.65


@dataclasses.dataclass
class Group:
    branches: list  # [[Step]], longest first
    steps: list  # the same steps in the sequential order (one thread)
    free: list  # what the steps' last uses free, freed after the group
    beside: int  # the work of all branches but the longest (`cost` units)
    longest: int = 0  # the longest branch's work


def branch_groups(steps: list, constants, outputs: set, cost) -> list:
    """The steps with the groups of independent branches found; `cost(step)` estimates
    a step's work (to take the longest branch first)."""
    readers: dict[str, list] = {}
    producer = {}
    for step in steps:
        for t in uses(step):
            if t:
                readers.setdefault(t, []).append(step)
        for t in step.node.outputs:
            if t:
                producer[t] = step

    def chain_input(step):
        """The one non-constant tensor a chain step reads, or None."""
        if getattr(step.kernel, "outer_names", None) or any(not t for t in step.node.outputs):
            return None
        live = [t for t in step.node.inputs if t and t not in constants]
        return live[0] if len(live) == 1 and len(step.node.outputs) == 1 else None

    grouped: dict[int, Group] = {}  # id(first step of the group) -> group
    taken: set = set()
    for join in steps:
        made = [t for t in dict.fromkeys(join.node.inputs) if t in producer]
        if len(made) < 2 or getattr(join.kernel, "outer_names", None):
            continue
        branches, fork = [], None
        for t in made:
            chain, cur = [], t
            while cur in producer and len(readers.get(cur, ())) == 1 \
                    and cur not in outputs:
                step = producer[cur]
                src = chain_input(step)
                if src is None or id(step) in taken:
                    break
                chain.insert(0, step)
                cur = src
            if not chain:  # the join reads the fork tensor itself (DenseNet's concat)
                fork = t if fork in (None, t) else False
                continue
            fork = cur if fork in (None, cur) else False
            branches.append(chain)
        if fork is False or fork is None or len(branches) < 2:
            continue
        members = [s for b in branches for s in b]
        order = {id(s): i for i, s in enumerate(steps)}
        members.sort(key=lambda s: order[id(s)])
        taken |= {id(s) for s in members}
        work = sorted((sum(cost(s) for s in b), i) for i, b in enumerate(branches))
        branches = [branches[i] for _, i in reversed(work)]
        grouped[id(members[0])] = Group(branches, members,
                                        [t for s in members for t in s.free],
                                        sum(w for w, _ in work[:-1]), work[-1][0])
    items = []
    for step in steps:
        if id(step) in grouped:
            items.append(grouped[id(step)])
        elif id(step) not in taken:
            items.append(step)
    if grouped:
        _refree(items, outputs)
    return items


def _refree(items: list, outputs: set) -> None:
    """Frees by last use again, a group being one item: a step between two of a group's
    steps now runs after the group, and may read what a group step's last use freed."""
    last = {}
    for i, item in enumerate(items):
        for step in item.steps if isinstance(item, Group) else [item]:
            for t in uses(step) + step.node.outputs:
                if t:
                    last[t] = i
    frees = [[] for _ in items]
    for t, i in last.items():
        if t not in outputs:
            frees[i].append(t)
    for item, free in zip(items, frees):
        item.free = free


def run_group(group: Group, run_step, env: dict) -> None:
    """Run a group's branches, at the same time when the intra-op threads allow it and
    the branches beside the longest are work enough to pay for it (workers.min_work():
    waking a worker for a short branch costs more than it gives, as for a kernel's
    parts; the steps then run one after the other, each free to split its own work),
    and the longest branch is not most of the group's work (LONGEST_SHARE).
    `run_step(step, lock)` runs one step (its checks under `lock`)."""
    if workers.current() <= 1 or group.beside < workers.min_work() or \
            group.longest > LONGEST_SHARE * (group.longest + group.beside):
        for step in group.steps:
            run_step(step, None)
    else:
        lock = threading.Lock()
        failed = {}
        order = {id(s): i for i, s in enumerate(group.steps)}

        def branch(b):
            for step in group.branches[b]:
                try:
                    run_step(step, lock)
                except Exception as e:  # noqa: BLE001  (raised below, the first in order)
                    failed[order[id(step)]] = e
                    return

        workers.parallel(branch, len(group.branches))
        if failed:
            raise failed[min(failed)]
    for t in group.free:
        env.pop(t, None)
