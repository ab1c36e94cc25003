"""ddz.learn's trainer: the lockstep actor's choices and records, the learner's step, the
checkpoints both ways (DouZero's evaluation loads ours, ours loads DouZero's), a short run
through ``python -m ddz train`` and its resumption."""

from __future__ import annotations

import _thread
import io
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
import tracemalloc
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
douzero = pytest.importorskip("douzero")

from ddz.cli.main import main  # noqa: E402
from ddz.compat.douzero import Env  # noqa: E402
from ddz.learn.actor import LockstepActor, actor_bytes, best_rows  # noqa: E402
from ddz.learn.buffers import KEYS, create_buffers, get_batch  # noqa: E402
from ddz.learn.flags import TrainFlags  # noqa: E402
from ddz.learn.learner import Learner  # noqa: E402
from ddz.learn.models import POSITIONS, new_models  # noqa: E402
from ddz.learn.remote import RemoteActor  # noqa: E402
from ddz.learn.train import load_checkpoint, train  # noqa: E402
from tests import douzero_networks  # noqa: E402

douzero_models = douzero_networks.douzero_models()

SMALL = {"unroll_length": 5, "batch_size": 2, "num_buffers": 4, "num_threads": 1}


@pytest.fixture(autouse=True)
def one_torch_thread() -> Any:
    """One torch thread, as the actors run: the networks here are small, and spare threads
    spinning on a busy machine cost more CPU time than they save."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    torch.manual_seed(0)  # the models' weights, so the games played are the same each run
    yield
    torch.set_num_threads(threads)


def test_best_rows_is_each_segments_first_argmax() -> None:
    rng = np.random.default_rng(3)
    counts = rng.integers(1, 6, size=200)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    values = rng.integers(0, 4, size=int(offsets[-1])).astype(np.float32)  # many ties
    values[5] = np.nan
    expected = []
    for j in range(counts.size):
        segment = np.nan_to_num(values[offsets[j] : offsets[j + 1]], nan=-np.inf)
        expected.append(offsets[j] + int(np.argmax(segment)))
    assert best_rows(values, offsets).tolist() == expected


def _one_game(seed: int) -> tuple[LockstepActor, float]:
    """A one-table actor after its first game; the landlord's reward of that game."""
    actor = LockstepActor(1, new_models(), exp_epsilon=0.5, seed=seed)
    rewards = []
    play = actor.env.step

    def step(actions: Any) -> Any:
        reward, done = play(actions)
        if done[0]:
            rewards.append(float(reward[0]))
        return reward, done

    actor.env.step = step  # type: ignore[method-assign]
    while not rewards:
        actor.step()
    return actor, rewards[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_targets_are_the_games_return_for_each_position(seed: int) -> None:
    actor, reward = _one_game(seed)
    assert actor.decisions == sum(actor.finished[p].size for p in POSITIONS)
    for p in POSITIONS:
        out = actor.finished[p]
        k = out.size
        assert k > 0
        expected = reward if p == "landlord" else -reward
        assert (out.target[:k] == expected).all()
        assert out.done[:k].tolist() == [False] * (k - 1) + [True]
        assert out.episode_return[:k].tolist() == [0.0] * (k - 1) + [expected]
        # the chosen actions' cards: the winner's side played out a whole hand
        played = int(out.obs_action[:k].sum())
        if p == "landlord":
            assert (played == 20) == (reward > 0)
        # each decision's features are the table's: the first landlord decision's hand is
        # the whole deal's 20 cards, a farmer's first hand 17
        assert int(out.obs_x_no_action[0, :54].sum()) == (20 if p == "landlord" else 17)


def test_recorded_rows_are_douzeros_rows_of_the_chosen_actions() -> None:
    """Replaying a table's game through Env, each decision's x row (x_no_action beside the
    action) and z are DouZero's observation of the action the actor chose."""
    actor = LockstepActor(1, new_models(), exp_epsilon=0.3, seed=11)
    deal = actor.env.card_play_data(0)
    chosen = []
    play = actor.env.step

    def step(actions: Any) -> Any:
        chosen.append(int(actions[0]))
        return play(actions)

    actor.env.step = step  # type: ignore[method-assign]
    while actor.episodes == 0:
        actor.step()
    env = Env("adp")
    obs = env.reset(deal)
    seen = dict.fromkeys(POSITIONS, 0)
    for index in chosen:
        p = obs["position"]
        out, k = actor.finished[p], seen[p]
        x = np.concatenate([out.obs_x_no_action[k], out.obs_action[k]])
        assert np.array_equal(x, obs["x_batch"][index])
        assert np.array_equal(out.obs_z[k], obs["z"])
        seen[p] += 1
        obs, _, done, _ = env.step(obs["legal_actions"][index])
        if done:
            break
    assert seen == {p: actor.finished[p].size for p in POSITIONS}


def test_actor_without_exploration_plays_the_models_best_action() -> None:
    """With ``exp_epsilon`` 0 each table plays the argmax of its position's model over
    DouZero's full rows (``forward`` on ``x_batch`` and ``z_batch``), the forced passes
    included, though the actor skips the network where there is one legal action and
    runs the compact form elsewhere."""
    models = new_models()
    actor = LockstepActor(16, models, exp_epsilon=0.0, seed=7)
    expected = np.empty(16, dtype=np.int64)
    played = []
    play = actor.env.step

    def step(actions: Any) -> Any:
        played.append(np.array(actions))
        return play(actions)

    actor.env.step = step  # type: ignore[method-assign]
    forced = choices = 0
    for _ in range(60):
        obs = actor.env.observe()
        for group in obs.groups:
            if group.tables.size == 0:
                continue
            with torch.inference_mode():
                values = (
                    models[group.position](
                        torch.from_numpy(group.z[group.row_slot]).float(),
                        torch.from_numpy(group.x_batch),
                    )
                    .numpy()
                    .reshape(-1)
                )
            counts = np.diff(group.offsets)
            forced += int((counts == 1).sum())
            choices += int((counts > 1).sum())
            expected[group.tables] = best_rows(values, group.offsets) - group.offsets[:-1]
        actor.step()
        assert played[-1].tolist() == expected.tolist()
    assert forced > 0 and choices > 0


def test_flush_writes_slots_in_order_and_get_batch_stacks_them() -> None:
    actor = LockstepActor(4, new_models(), unroll_length=5, seed=5)
    while min(actor.finished[p].size for p in POSITIONS) < 10:
        actor.step()
    first = {
        p: {k: a[:10].copy() for k, a in actor.finished[p].arrays().items()} for p in POSITIONS
    }
    slots = 1 + max(actor.finished[p].size for p in POSITIONS) // 5  # a free slot for each
    buffers = create_buffers(slots, 5)
    free = {p: queue.SimpleQueue() for p in POSITIONS}
    full = {p: queue.SimpleQueue() for p in POSITIONS}
    for p in POSITIONS:
        for m in (2, 0, *range(3, slots), 1) if slots > 2 else range(slots):
            free[p].put(m)
    views = {p: {k: v.numpy() for k, v in buffers[p].items()} for p in POSITIONS}
    assert actor.flush(free, full, views)
    for p in POSITIONS:
        assert actor.finished[p].size < 5
        batch = get_batch(free[p], full[p], buffers[p], 2, threading.Lock())
        assert batch is not None
        for key in KEYS:
            assert batch[key].shape[:2] == (5, 2)
            # slot 2 then slot 0: the first ten finished decisions, five a column
            got = batch[key].transpose(0, 1).reshape(10, *batch[key].shape[2:]).numpy()
            assert np.array_equal(got, first[p][key])


def test_learner_loss_is_the_mse_of_the_batch() -> None:
    torch.manual_seed(0)
    flags = TrainFlags(**SMALL)
    models = new_models()
    actor_models = new_models()
    before = {k: v.clone() for k, v in models["landlord_up"].state_dict().items()}
    learner = Learner(flags, models, actor_models)
    t, b = 3, 2
    batch = {
        "done": torch.tensor([[False, False], [True, False], [False, True]]),
        "episode_return": torch.tensor([[0.0, 0.0], [-2.0, 0.0], [0.0, 4.0]]),
        "target": torch.tensor([[-2.0, 4.0], [-2.0, 4.0], [1.0, 4.0]]),
        "obs_x_no_action": torch.randint(0, 2, (t, b, 430), dtype=torch.int8),
        "obs_action": torch.randint(0, 2, (t, b, 54), dtype=torch.int8),
        "obs_z": torch.randint(0, 2, (t, b, 5, 162), dtype=torch.int8),
    }
    reference = douzero_models.FarmerLstmModel()
    reference.load_state_dict(before)
    squares = []
    for i in range(t):
        for j in range(b):
            x = torch.cat([batch["obs_x_no_action"][i, j], batch["obs_action"][i, j]]).float()
            z = batch["obs_z"][i, j].float()
            value = reference.forward(z[None], x[None], return_value=True)["values"].item()
            squares.append((value - batch["target"][i, j].item()) ** 2)
    stats = learner.learn("landlord_up", batch)
    assert stats["loss_landlord_up"] == pytest.approx(sum(squares) / len(squares), rel=1e-5)
    assert stats["mean_episode_return_landlord_up"] == pytest.approx(1.0)  # (-2 + 4) / 2
    after = models["landlord_up"].state_dict()
    assert any(not torch.equal(before[k], after[k]) for k in before)
    assert all(torch.equal(actor_models["landlord_up"].state_dict()[k], after[k]) for k in after)


def _douzero_dmc(monkeypatch: pytest.MonkeyPatch) -> None:
    """douzero.dmc.models importable without douzero.dmc's trainer (and GitPython)."""
    package = types.ModuleType("douzero.dmc")
    package.__path__ = []
    monkeypatch.setitem(sys.modules, "douzero.dmc", package)
    monkeypatch.setitem(sys.modules, "douzero.dmc.models", douzero_models)


def test_douzero_model_tar_loads_into_the_learner(tmp_path: Path) -> None:
    """A checkpoint as DouZero's trainer writes it (its Model, its optimizers after a step)
    loads into ddz's learner: the same weights and optimizer state, frames and stats."""
    torch.manual_seed(2)
    theirs = douzero_models.Model(device="cpu")
    optimizers = {}
    for p in POSITIONS:
        optimizer = torch.optim.RMSprop(
            theirs.parameters(p), lr=0.0001, momentum=0, eps=1e-5, alpha=0.99
        )
        z, x = torch.rand(4, 5, 162), torch.rand(4, 373 if p == "landlord" else 484)
        theirs.get_model(p).forward(z, x, return_value=True)["values"].sum().backward()
        optimizer.step()
        optimizers[p] = optimizer
    stats = {f"{k}_{p}": 0.5 for p in POSITIONS for k in ("mean_episode_return", "loss")}
    path = tmp_path / "douzero" / "model.tar"
    path.parent.mkdir()
    torch.save(
        {
            "model_state_dict": {p: theirs.get_model(p).state_dict() for p in POSITIONS},
            "optimizer_state_dict": {p: optimizers[p].state_dict() for p in POSITIONS},
            "stats": stats,
            "flags": {"xpid": "douzero", "unroll_length": 100, "batch_size": 32},
            "frames": 6400,
            "position_frames": {"landlord": 3200, "landlord_up": 3200, "landlord_down": 0},
        },
        path,
    )
    learner = Learner(TrainFlags(**SMALL), new_models())
    frames, position_frames = load_checkpoint(path, learner)
    assert (frames, position_frames["landlord_up"]) == (6400, 3200)
    assert learner.stats == stats
    for p in POSITIONS:
        mine, reference = learner.models[p].state_dict(), theirs.get_model(p).state_dict()
        assert all(torch.equal(mine[k], reference[k]) for k in reference)
        square_avg = learner.optimizers[p].state_dict()["state"][0]["square_avg"]
        assert torch.equal(square_avg, optimizers[p].state_dict()["state"][0]["square_avg"])


def test_train_saves_douzero_checkpoints_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m ddz train`` with one actor process: model.tar and the .ckpt files are
    written in DouZero's forms, DouZero's evaluation agent plays from a .ckpt, and a run
    with --load-model continues the frame count until Ctrl-C, which saves and stops it."""
    arguments = ["train", "--savedir", str(tmp_path), "--xpid", "run", "--num-actors", "1"]
    arguments += ["--tables-per-actor", "8", "--unroll-length", "5", "--batch-size", "2"]
    arguments += ["--num-buffers", "4", "--num-threads", "1", "--log-interval", "0.5"]
    assert main([*arguments, "--total-frames", "100", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "done: " in out and "frames/s" in out and "actors: " in out
    saved = torch.load(tmp_path / "run" / "model.tar", weights_only=True)
    assert set(saved) == {
        "model_state_dict",
        "optimizer_state_dict",
        "stats",
        "flags",
        "frames",
        "position_frames",
    }
    frames = saved["frames"]
    assert frames >= 100 and frames == sum(saved["position_frames"].values())
    assert saved["flags"]["tables_per_actor"] == 8
    for p in POSITIONS:
        assert (tmp_path / "run" / f"{p}_weights_{frames}.ckpt").is_file()

    # and it resumes in DouZero's trainer as that trainer loads it: its models, its optimizers
    theirs_model = douzero_models.Model(device="cpu")
    for p in POSITIONS:
        theirs_model.get_model(p).load_state_dict(saved["model_state_dict"][p])
        optimizer = torch.optim.RMSprop(
            theirs_model.parameters(p), lr=0.0001, momentum=0, eps=1e-5, alpha=0.99
        )
        optimizer.load_state_dict(saved["optimizer_state_dict"][p])

    _douzero_dmc(monkeypatch)
    from douzero.evaluation.deep_agent import DeepAgent

    agent = DeepAgent("landlord", str(tmp_path / "run" / f"landlord_weights_{frames}.ckpt"))
    ours = new_models()["landlord"]
    ours.load_state_dict(saved["model_state_dict"]["landlord"])
    theirs = agent.model.state_dict()
    assert all(torch.equal(theirs[k], v) for k, v in ours.state_dict().items())
    env = Env("adp")
    env.reset()
    assert env.infoset is not None
    assert agent.act(env.infoset) in env.infoset.legal_actions

    # resumed, then stopped as Ctrl-C stops it (KeyboardInterrupt in the main thread) once a
    # learner step of the resumed run is done
    learn = Learner.learn
    interrupted = threading.Event()

    def learn_then_interrupt(self: Learner, position: str, batch: Any) -> dict[str, float]:
        stats = learn(self, position, batch)
        if not interrupted.is_set():  # one Ctrl-C: a second would cut the saving short
            interrupted.set()
            _thread.interrupt_main()
        return stats

    monkeypatch.setattr(Learner, "learn", learn_then_interrupt)
    status = main([*arguments, "--load-model", "--seed", "8", "--total-frames", "10000"])
    out = capsys.readouterr().out
    assert status == 130, out
    assert f"resuming {tmp_path / 'run' / 'model.tar'} at {frames:,} frames" in out
    assert "interrupted: " in out
    resumed = torch.load(tmp_path / "run" / "model.tar", weights_only=True)["frames"]
    assert resumed > frames
    for p in POSITIONS:
        assert (tmp_path / "run" / f"{p}_weights_{resumed}.ckpt").is_file()


def test_remote_actor_returns_full_slots_of_douzero_keys() -> None:
    flags = TrainFlags(tables_per_actor=4, seed=3, **SMALL)
    remote = RemoteActor(flags, 0)
    weights = {p: new_models()[p].state_dict() for p in POSITIONS}
    slots, counters = remote.play(weights)
    assert any(slots[p] for p in POSITIONS)
    for p in POSITIONS:
        assert all(remote.models[p].state_dict()[k].equal(v) for k, v in weights[p].items())
        assert remote.actor.finished[p].size < 5  # every full slot was returned
        for slot in slots[p]:
            assert set(slot) == set(KEYS) and all(len(a) == 5 for a in slot.values())
    assert counters[0] == remote.actor.decisions > 0


def test_train_on_a_local_ray_cluster(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("Ray is already initialized in this process")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        flags = TrainFlags(
            savedir=str(tmp_path),
            xpid="ray",
            num_actors=1,
            tables_per_actor=8,
            total_frames=60,
            log_interval=0.5,
            seed=5,
            ray="local",
            **SMALL,
        )
        result = train(flags, out=io.StringIO())
    finally:
        ray.shutdown()
    assert result.frames >= 60 and result.decisions > 0
    saved = torch.load(tmp_path / "ray" / "model.tar", weights_only=True)
    assert saved["frames"] == result.frames and saved["flags"]["ray"] == "local"


@pytest.mark.parametrize(
    "argv",
    [
        ["--num-actors", "0"],
        ["--tables-per-actor", "5000"],
        ["--device", "gpu"],
        ["--exp-epsilon", "2"],
        ["--objective", "score"],
        ["--save-interval", "nan"],
    ],
)
def test_train_refuses_bad_arguments_in_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["train", *argv])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and argv[0] in err


def test_train_refuses_actors_whose_tables_exceed_the_memory(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """1,024 actors of 4,096 tables would need about 3.7 TB: refused before any starts."""
    status = main(["train", "--num-actors", "1024", "--tables-per-actor", "4096"])
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the actors' tables" in err and "ask for fewer" in err


def test_actor_bytes_is_what_an_actor_holds() -> None:
    """The estimate the memory check uses, against an actor's allocations (tracemalloc)."""
    models = new_models()
    tracemalloc.start()
    try:
        actor = LockstepActor(64, models, unroll_length=20, seed=2)
        for _ in range(40):
            actor.step()
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert 0.85 < held / actor_bytes(64, 20) < 1.15


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL here")
def test_a_killed_actor_stops_the_run_in_one_line_and_saves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An actor killed mid-run (as the kernel kills one when memory runs out) stops the
    training at once, with the run so far saved and one line saying which and how."""

    def kill_the_actor() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            children = multiprocessing.active_children()
            if children and children[0].pid is not None:
                os.kill(children[0].pid, signal.SIGKILL)
                return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_the_actor, daemon=True)
    killer.start()
    arguments = ["train", "--savedir", str(tmp_path), "--xpid", "run", "--num-actors", "1"]
    arguments += ["--tables-per-actor", "4", "--unroll-length", "5", "--batch-size", "2"]
    arguments += ["--num-buffers", "4", "--num-threads", "1", "--total-frames", "100000000"]
    status = main(arguments)
    killer.join()
    assert status == 1
    err = capsys.readouterr().err.strip().splitlines()
    path = tmp_path / "run" / "model.tar"
    assert err == [
        f"error: actor 0 was killed by SIGKILL (out of memory?); the run so far is saved in {path}"
    ]
    assert path.is_file()
