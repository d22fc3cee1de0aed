"""The `officegym` command: serve a company, list and validate tasks, benchmark."""

from __future__ import annotations

from typing import Any

import typer

app = typer.Typer(help="officegym: a simulated company (chat, crm, sheets, tickets) for AI agents.", no_args_is_help=True,
                  rich_markup_mode="markdown")  # markdown: a docstring's lines are one paragraph, wrapped to the terminal
tasks_app = typer.Typer(help="Task families: list them, validate them.", no_args_is_help=True, rich_markup_mode="markdown")
app.add_typer(tasks_app, name="tasks")


def _known_size(size: str) -> str:
    """A company size every command checks before it starts work, naming the sizes there are."""
    from seed_data.company import SIZES

    if size not in SIZES:
        raise typer.BadParameter(f"unknown company size {size!r}; accepted: {', '.join(SIZES)}")
    return size


def size_option(help_text: str) -> Any:
    return typer.Option("small", help=help_text, callback=_known_size)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="interface the agent-facing server binds"),
    port: int = typer.Option(8000, help="port of the agent-facing server (UIs, REST APIs, MCP)"),
    control_host: str = typer.Option("127.0.0.1", help="interface the control plane binds"),
    control_port: int = typer.Option(None, help="port of the control plane (default: port + 1)"),
    seed: int = typer.Option(0, help="company seed of the default env"),
    size: str = size_option("company size: small or large"),
    task: str = typer.Option(None, help="task family of the default env (none: a bare company)"),
    db: str = typer.Option(None, help="where envs live: a postgresql:// URL (default: SQLite files; or OFFICEGYM_DB)"),
    tls_port: int = typer.Option(None, help="port of the same agent-facing server over HTTPS (default: port + 2; 0: none)"),
    public_url: str = typer.Option(None, envvar="OFFICEGYM_PUBLIC_URL",
                                   help="base URL agents reach the server at, when not the address it binds (e.g. http://gym.lab:8000 for --host 0.0.0.0, or a reverse proxy's); env URLs the control plane hands out use it"),
) -> None:
    """Serve every app for a default env (the company simulation), plus the control plane on
    its own port behind a generated bearer token."""
    from officegym.serving import run_serve

    try:
        run_serve(host=host, port=port, control_host=control_host, control_port=control_port if control_port is not None else port + 1,
                  seed=seed, size=size, task=task, db=db, echo=typer.echo, tls_port=tls_port if tls_port is not None else port + 2,
                  public_url=public_url)
    except (KeyError, ValueError, OSError) as error:
        raise typer.BadParameter(str(error).strip('"')) from None


@tasks_app.command("list")
def tasks_list(
    seed: int = typer.Option(0, help="company seed to count instances on"),
    size: str = size_option("company size to count instances on: small or large"),
) -> None:
    """List the task families, with how many distinct instances (variants) each has on one
    company template."""
    import tempfile
    from pathlib import Path

    from officegym.gym import Gym
    from tasks import registry

    with tempfile.TemporaryDirectory(prefix="officegym-tasks-") as tmp:
        gym = Gym(envs_dir=Path(tmp))
        try:
            counts = {family.id: gym.count_instances(family.id, seed=seed, size=size) for family in registry.all_families()}
        finally:
            gym.close()
    typer.echo(f"{'family':<40} {'level':<7} {'instances':>9}  summary   (seed {seed}, {size})")
    for family in registry.all_families():
        count = counts[family.id]
        typer.echo(f"{family.id:<40} {family.difficulty:<7} {count if count is not None else '?':>9}  {family.summary}")


@tasks_app.command("validate")
def tasks_validate(
    seeds: int = typer.Option(3, help="number of seeds (0..N-1) to validate each family on"),
    variants: int = typer.Option(1, help="number of variants (0..N-1) per family and seed"),
    size: str = size_option("company size: small or large"),
    task: list[str] = typer.Option(None, help="only these families (repeatable)"),
) -> None:
    """Prove each family (all, or those given with --task) on seeds 0..N-1 and variants 0..N-1:
    the oracle and every alternative correct solution pass, doing nothing scores 0.0, and every
    adversary stays below the pass line."""
    from officegym.validate import validate

    failures = validate(seeds=seeds, size=size, only=task or None, echo=typer.echo, variants=variants)
    raise typer.Exit(code=1 if failures else 0)


@app.command()
def bench(
    envs: int = typer.Option(1000, help="live envs to create for the memory figure"),
    calls: int = typer.Option(300, help="MCP tool calls to time"),
    seed: int = typer.Option(0, help="company seed the timed envs are made from"),
    size: str = size_option("company size the timed envs are made from: small or large"),
) -> None:
    """Print the performance table: each figure with the target it is judged by and its ratio."""
    from officegym.bench import run_bench

    run_bench(envs=envs, calls=calls, seed=seed, size=size, echo=typer.echo)


if __name__ == "__main__":
    app()
