"""The `officegym` command: serve a company, list and validate tasks, benchmark."""

from __future__ import annotations

import signal
import sys

import typer

app = typer.Typer(help="officegym: a simulated company (chat, crm, sheets, tickets) for AI agents.", no_args_is_help=True)
tasks_app = typer.Typer(help="Task families: list them, validate them.", no_args_is_help=True)
app.add_typer(tasks_app, name="tasks")


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="interface to bind"),
    port: int = typer.Option(8000, help="port to bind"),
    seed: int = typer.Option(0, help="company seed of the default env"),
    size: str = typer.Option("small", help="company size: small or large"),
    task: str = typer.Option(None, help="task family of the default env (none: a bare company)"),
) -> None:
    """Serve every app for a default env (the company simulation) plus the control plane."""
    import uvicorn

    from officegym.control import env_urls
    from officegym.gym import Gym
    from officegym.server import create_app

    gym = Gym()
    try:
        env = gym.create(task, seed=seed, size=size)
    except (KeyError, ValueError) as error:
        raise typer.BadParameter(str(error).strip('"')) from None
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    base = f"http://{shown}:{port}"
    urls = env_urls(base, env.id)
    company = gym.template(seed, size).company
    typer.echo(f"officegym — {company.name} (seed {seed}, {size}); default env {env.id}")
    if env.task is not None:
        typer.echo(f"task {task}: {env.task.prompt}")
    for kind in ("ui", "mcp", "api"):
        for name, url in urls[kind].items():
            typer.echo(f"  {kind:<4} {name:<8} {url}")
    typer.echo(f"  control plane  {base}/v1/envs  (POST to create more envs; docs at {base}/docs)")
    # uvicorn re-raises SIGTERM after its own shutdown; turn it into an exit so the env
    # files of this process are removed (docker stop, kill) as they are on Ctrl-C.
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
    try:
        uvicorn.run(create_app(gym, host=host), host=host, port=port, log_level="warning")
    finally:
        gym.close()


@tasks_app.command("list")
def tasks_list() -> None:
    """List the task families."""
    from tasks import registry

    for family in registry.all_families():
        typer.echo(f"{family.id:<40} {family.difficulty:<7} {family.summary}")


@tasks_app.command("validate")
def tasks_validate(
    seeds: int = typer.Option(3, help="number of seeds (0..N-1) to validate each family on"),
    size: str = typer.Option("small", help="company size"),
    task: list[str] = typer.Option(None, help="only these families (repeatable)"),
) -> None:
    """Prove every family: the oracle scores 1.0 and doing nothing scores 0.0, on every seed."""
    from officegym.validate import validate

    failures = validate(seeds=seeds, size=size, only=task or None, echo=typer.echo)
    raise typer.Exit(code=1 if failures else 0)


@app.command()
def bench(
    envs: int = typer.Option(1000, help="live envs to create for the memory figure"),
    calls: int = typer.Option(300, help="MCP tool calls to time"),
    seed: int = typer.Option(0),
    size: str = typer.Option("small"),
) -> None:
    """Print the performance table (targets in DESIGN.md)."""
    from officegym.bench import run_bench

    run_bench(envs=envs, calls=calls, seed=seed, size=size, echo=typer.echo)


if __name__ == "__main__":
    app()
