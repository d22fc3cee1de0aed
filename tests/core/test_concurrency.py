"""The store under concurrent load, on both backends: many envs written from many threads
(with far fewer open connections than envs, so connections are evicted all the time), and
many writers in one env, from worker threads and the event loop's thread at once.
Every acknowledged write must be there afterwards; nothing may fail or crash."""

from __future__ import annotations

import asyncio
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from officegym.core.db import get_meta, set_meta
from officegym.core.env_store import EnvStore

ENVS, THREADS, WRITES_PER_THREAD = 120, 16, 60


def test_many_envs_many_threads_no_error_no_lost_write(tmp_path: Path, backend_url: str | None, tiny_template: Path) -> None:
    store = EnvStore(tmp_path / "envs", max_open_engines=8, db_url=backend_url)
    try:
        with ThreadPoolExecutor(4) as pool:  # creating is thread-safe too
            envs = list(pool.map(lambda _: store.create(tiny_template, seed=0, size="small"), range(ENVS)))
        acknowledged: list[tuple[int, str, str]] = []
        errors: list[BaseException] = []
        lock = threading.Lock()

        def writer(worker: int) -> None:
            rng = random.Random(worker)
            for i in range(WRITES_PER_THREAD):
                index = rng.randrange(ENVS)
                key, value = f"w{worker}.{i}", f"v{worker}.{i}.{index}"
                try:
                    with store.session(envs[index]) as db:
                        set_meta(db, key, value)
                        assert get_meta(db, key) == value
                except BaseException as error:  # noqa: BLE001
                    with lock:
                        errors.append(error)
                    continue
                with lock:
                    acknowledged.append((index, key, value))  # the session returned: acknowledged

        with ThreadPoolExecutor(THREADS) as pool:
            list(pool.map(writer, range(THREADS)))
        assert errors == []
        assert len(acknowledged) == THREADS * WRITES_PER_THREAD
        lost = []
        for index, key, value in acknowledged:
            with store.session(envs[index]) as db:
                if get_meta(db, key) != value:
                    lost.append((index, key))
        assert lost == []
        # Isolation: each env holds exactly the writes made to it.
        for index in random.Random(0).sample(range(ENVS), 10):
            with store.session(envs[index]) as db:
                for other, key, _ in acknowledged:
                    if other != index:
                        assert get_meta(db, key) is None
    finally:
        store.close()


def test_concurrent_writers_in_one_env_from_threads_and_the_event_loop(tmp_path: Path, backend_url: str | None, tiny_template: Path) -> None:
    store = EnvStore(tmp_path / "envs", db_url=backend_url)
    try:
        env = store.create(tiny_template, seed=0, size="small")
        acknowledged: list[str] = []
        lock = threading.Lock()

        def increment(tag: str) -> None:
            # read-modify-write: a lost update shows as a counter below the number of writes
            with store.session(env) as db:
                count = int(get_meta(db, "counter", "0") or 0)
                set_meta(db, f"seen.{tag}", str(count))
                set_meta(db, "counter", str(count + 1))
            with lock:
                acknowledged.append(tag)

        async def main() -> None:
            async def from_loop(n: int) -> None:
                for i in range(n):
                    increment(f"loop.{i}")  # on the event loop's thread, as a sync face does
                    await asyncio.sleep(0)

            workers = [asyncio.to_thread(lambda t=t: [increment(f"t{t}.{i}") for i in range(40)]) for t in range(8)]
            await asyncio.gather(from_loop(40), *workers)

        asyncio.run(main())
        assert len(acknowledged) == 9 * 40
        with store.session(env) as db:
            assert get_meta(db, "counter") == str(len(acknowledged))
            seen = sorted(int(get_meta(db, f"seen.{tag}") or -1) for tag in acknowledged)
        assert seen == list(range(len(acknowledged))), "each write saw every write acknowledged before it"
    finally:
        store.close()


def test_deletes_racing_lookups_and_writes(tmp_path: Path, backend_url: str | None, tiny_template: Path) -> None:
    """Writers look their env up by id (as a face does) while it is deleted: each call either
    commits or is EnvNotFound, nothing crashes, and the env never comes back."""
    from officegym.core.errors import EnvNotFound

    store = EnvStore(tmp_path / "envs", max_open_engines=4, db_url=backend_url)
    try:
        envs = [store.create(tiny_template, seed=0, size="small") for _ in range(12)]
        problems: list[str] = []

        def writer(env_id: str, worker: int) -> None:
            gone = False
            for i in range(30):
                try:
                    with store.session(store.get(env_id)) as db:
                        set_meta(db, f"w{worker}.{i}", "x")
                    if gone:
                        problems.append(f"{env_id} came back after EnvNotFound")
                except EnvNotFound:
                    gone = True
                except Exception as error:  # noqa: BLE001
                    problems.append(repr(error))

        def deleter(env_id: str) -> None:
            try:
                store.delete(env_id)
            except EnvNotFound:
                pass

        with ThreadPoolExecutor(16) as pool:
            futures = [pool.submit(writer, env.id, w) for env in envs for w in range(3)]
            futures += [pool.submit(deleter, env.id) for env in envs]
            for future in futures:
                future.result()
        assert problems == []
        assert store.list() == []
        assert not any(store.backend.exists(env.handle) for env in envs)
    finally:
        store.close()
