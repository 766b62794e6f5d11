"""Splits the CPU samples of bench/startup_breakdown.sh into phases.

Usage: startup_phases.py JUDGINGS WORK [PHASE]  (WORK holds judge.txt, floor.txt:
`perf script -F comm,ip,sym` with call stacks, and judge.stat, floor.stat:
`perf stat -x, -e task-clock` of the same loops without sampling).

Each sample goes to the first phase whose frames it passes through, in
the order of PHASES: the kernel's work for a system call is counted with
the phase that made it. The figures are scaled to the unsampled CPU time,
so they are ms of CPU per judging (or per floor run of the 3 inputs).
With PHASE, the judge's samples of that phase are listed instead, by the
innermost of the project's own frames and the leaf.
"""

import collections
import sys

# (phase, substrings of a frame's symbol, which processes (by `comm`)): a
# sample goes to the first phase of the list that one of its frames, at
# any depth, matches (and its process, where one is named), so a phase
# names what the judge was doing, not the kernel function at the leaf.
PHASES = [
    ("exec of a program (kernel)", ("execve", "bprm_execve", "load_elf_binary"), None),
    ("the program, after exec", None, {"x", "main"}),
    ("process exit (kernel)", ("do_exit", "do_group_exit", "exit_mmap"), None),
    ("fork, clone (kernel)", ("kernel_clone", "copy_process"), None),
    ("the driver that starts each command", None, {"repeat"}),
    ("seccomp filter, per run", ("seccomp", "bpf_"), None),
    ("Landlock, per run", ("landlock",), None),
    ("tmpfs working folder, per run", ("fsopen", "fsconfig", "fsmount", "move_mount"), None),
    ("zygote, init: the rest", None, {"grundy-zygotes"}),
    ("command line (clap)", ("clap_builder",), None),
    ("problem file (YAML)", ("ProblemSet::find", "problem::load"), None),
    ("judge context: sandbox probe, cgroups, folders", ("Context::new", "cli::context"), None),
    ("preparing: compile cache, tests, checker", ("prepare::prepare",), None),
    ("sandbox, the judge's side of each run", ("sandbox::process::run", "Runner::run"), None),
    ("clean-up (working folder, groups)", ("judge::context::Context>", "Context as core::ops::drop"), None),
    ("judging: checks, events, report", ("grundy_judge::", "grundy_tools::", "grundy::"), None),
    ("relocation of the executable (loader)", ("_dl_relocate",), None),
    ("CPU probing by the C library (cpuid)", ("handle_intel", "intel_check_word", "init_cpu_features",
                                             "cacheinfo", "get_common_indices",
                                             "get_extended_indices", "update_active"), None),
    ("the C library's start and exit: the rest", ("__libc_start_main", "_dl_", "exit"), None),
    ("the floor's own loop", None, {"forkloop"}),
    ("anything else", None, None),
]


def samples(path):
    """Yields (comm, frames root first) for each sample of `perf script`."""
    comm, frames = None, []
    with open(path, errors="replace") as f:
        for line in f:
            if not line.strip():
                if comm is not None:
                    yield comm, frames[::-1]
                comm, frames = None, []
            elif line.startswith("\t"):  # a frame: address, symbol
                parts = line.split(None, 1)
                frames.append(parts[1].strip() if len(parts) > 1 else "")
            else:
                comm, frames = line.strip(), []
    if comm is not None:
        yield comm, frames[::-1]


def phase(comm, frames):
    for name, keys, comms in PHASES:
        if comms is not None and comm not in comms:
            continue
        if keys is None or any(k in f for f in frames for k in keys):
            return name
    return "anything else"


def cpu_ms(stat_path):
    with open(stat_path) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) > 2 and parts[2].startswith("task-clock"):
                return float(parts[0])
    sys.exit(f"no task-clock in {stat_path}")


def split(work, kind, judgings):
    counts = collections.Counter(phase(c, fr) for c, fr in samples(f"{work}/{kind}.txt"))
    total = sum(counts.values())
    if total == 0:
        sys.exit(f"no samples in {work}/{kind}.txt: is perf allowed to sample?")
    scale = cpu_ms(f"{work}/{kind}.stat") / total / judgings
    return {k: v * scale for k, v in counts.items()}


def inside(work, wanted):
    """The judge's samples of phase `wanted`, by where in the project they are."""
    places = collections.Counter()
    for comm, frames in samples(f"{work}/judge.txt"):
        if phase(comm, frames) != wanted:
            continue
        ours = [f for f in frames if "grundy" in f]
        leaf = frames[-1] if frames else "?"
        places[f"{ours[-1][:90] if ours else comm} ... {leaf[:50]}"] += 1
    total = sum(places.values())
    print(f"{total} samples of {wanted!r}")
    for where, n in places.most_common(30):
        print(f"{n:6d} {where}")


def main():
    judgings, work = int(sys.argv[1]), sys.argv[2]
    if len(sys.argv) > 3:
        inside(work, sys.argv[3])
        return
    judge = split(work, "judge", judgings)
    floor = split(work, "floor", judgings)
    print(f"ms of CPU per command, {judgings} of each; judge = grundy judge nim x.c --tests sample,"
          " floor = bare fork-exec-wait of x on the same 3 inputs")
    print(f"{'phase':<48} {'judge':>7} {'floor':>7} {'judge - floor':>14}")
    for name, _, _ in PHASES:
        j, f = judge.get(name, 0.0), floor.get(name, 0.0)
        if j or f:
            print(f"{name:<48} {j:7.2f} {f:7.2f} {j - f:14.2f}")
    tj, tf = sum(judge.values()), sum(floor.values())
    print(f"{'total':<48} {tj:7.2f} {tf:7.2f} {tj - tf:14.2f}")
    # Each side's samples are scaled to its own measured CPU. Where the two
    # sides were sampled at different rates (from run to run, 3 to 21 %
    # here), the difference is spread over all of that side's phases: a
    # phase with the same samples on both sides then shows a difference
    # that is only the rates'.
    rj, rf = (rate(work, k) for k in ("judge", "floor"))
    print(f"samples per ms of CPU: judge {rj:.2f}, floor {rf:.2f}"
          f" (a phase's figure is {abs(rf / rj - 1) * 100:.0f} % "
          f"{'higher' if rj < rf else 'lower'} on the judge's side for the same samples)")


def rate(work, kind):
    """Samples per ms of measured CPU."""
    n = sum(1 for _ in samples(f"{work}/{kind}.txt"))
    return n / cpu_ms(f"{work}/{kind}.stat")


if __name__ == "__main__":
    main()
