"""Data-parallel training (agents/training/distributed.py): ranks average their gradients
and value statistics into what one process computes on the union of their batches, stay
in sync, and ``torchrun`` trains a run that rank 0 alone logs and saves."""

from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torch.multiprocessing as mp

from agents.checkpoints import load_checkpoint
from agents.networks import ValueNorm
from agents.training.distributed import Ranks, gpu_share

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _batch() -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    return torch.randn(8, 5, generator=g), torch.randn(8, generator=g)


def _model() -> torch.nn.Module:
    torch.manual_seed(1)
    return torch.nn.Sequential(torch.nn.Linear(5, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))


def _rank_main(rank: int, port: int, out: str, host_reduce: bool) -> None:
    os.environ.update(WORLD_SIZE="2", RANK=str(rank), LOCAL_RANK=str(rank),
                      LOCAL_WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    # host_reduce: the path of ranks sharing a GPU over gloo (here on CPU tensors)
    ranks = dataclasses.replace(Ranks.from_env("cpu"), host_reduce=host_reduce)
    x, y = _batch()
    half = slice(4 * rank, 4 * rank + 4)  # each rank its half of the batch
    model = _model()
    if rank == 1:  # different weights: broadcast must give rank 0's
        with torch.no_grad():
            for p in model.parameters():
                p.add_(1.0)
    ranks.broadcast(model)
    loss = ((model(x[half]).squeeze(1) - y[half]) ** 2).mean()
    loss.backward()
    params = list(model.parameters())
    params[-1].grad = None  # a term this rank skipped counts as 0 in the average
    ranks.average_gradients(params)
    vnorm = ValueNorm()
    vnorm.update(y[half], ranks.average)
    ranks.check_in_sync(model)
    total = ranks.total(3 + rank, torch.device("cpu"))
    torch.save({"grads": [p.grad for p in params], "mean": vnorm.mean,
                "mean_sq": vnorm.mean_sq, "total": total}, f"{out}/rank{rank}.pt")
    ranks.close()


@pytest.mark.parametrize("host_reduce", [False, True])
def test_two_ranks_average_to_the_union_batch(tmp_path, host_reduce):
    mp.spawn(_rank_main, args=(_free_port(), str(tmp_path), host_reduce), nprocs=2,
             join=True)
    x, y = _batch()
    model = _model()
    ((model(x).squeeze(1) - y) ** 2).mean().backward()
    want = [p.grad for p in model.parameters()]
    # the last bias: each rank's share was dropped, so the average is 0
    want[-1] = torch.zeros_like(want[-1])
    vnorm = ValueNorm()
    vnorm.update(y)
    for rank in (0, 1):
        got = torch.load(tmp_path / f"rank{rank}.pt")
        for g, w in zip(got["grads"], want, strict=True):
            torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-6)
        torch.testing.assert_close(got["mean"], vnorm.mean)
        torch.testing.assert_close(got["mean_sq"], vnorm.mean_sq)
        assert got["total"] == 7


def test_one_process_is_a_plain_run(monkeypatch):
    monkeypatch.delenv("WORLD_SIZE", raising=False)
    ranks = Ranks.from_env("cpu")
    assert not ranks.active and ranks.main
    x = torch.ones(3)
    assert ranks.average(x) is x and ranks.total(5, torch.device("cpu")) == 5


def test_ranks_take_a_gpu_each_or_share_them():
    """A GPU per rank over NCCL while the machine has enough; more ranks than GPUs share
    them round-robin over gloo (NCCL refuses two ranks on one GPU)."""
    assert [gpu_share(r, 2, 8) for r in range(2)] == [(0, "nccl"), (1, "nccl")]
    assert [gpu_share(r, 4, 1) for r in range(4)] == [(0, "gloo")] * 4
    assert [gpu_share(r, 4, 2)[0] for r in range(4)] == [0, 1, 0, 1]
    with pytest.raises(ValueError, match="needs a GPU"):
        gpu_share(0, 2, 0)


@pytest.mark.skipif(shutil.which("torchrun") is None and not (
    Path(sys.executable).parent / "torchrun").exists(), reason="torchrun not installed")
def test_torchrun_trains_with_two_ranks(tmp_path):
    """Two ranks of 16 games train 4 updates of 2 x 16 x 8 decisions; rank 0 writes the
    logs and the checkpoint, the weights stay equal on both ranks (checked at the end)."""
    torchrun = shutil.which("torchrun") or str(Path(sys.executable).parent / "torchrun")
    run = tmp_path / "run"
    cmd = [torchrun, "--nproc_per_node", "2", "--master_port", str(_free_port()), "-m",
           "agents.cli.train", "--task", "solo", "--num-envs", "16", "--num-steps", "8",
           "--num-minibatches", "2", "--total-steps", "1024", "--eval-every", "100000",
           "--eval-games", "4", "--hidden", "32", "--run-dir", str(run), "--progress",
           "false"]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "2 ranks" in done.stdout and done.stdout.count("[train]") == 1
    steps = [int(line.split(",")[0]) for line in
             (run / "train.csv").read_text().splitlines()[1:]]
    assert steps == [256, 512, 768, 1024]  # every rank's decisions counted
    assert load_checkpoint(run / "final.pt")["global_step"] == 1024


def test_trainers_without_ranks_refuse_torchrun(monkeypatch, capsys):
    from agents.cli.train import main

    monkeypatch.setenv("WORLD_SIZE", "2")
    with pytest.raises(SystemExit):
        main(["--algo", "ppo"])
    assert "does not run under torchrun" in capsys.readouterr().err


def test_selfplay_refuses_torchrun(monkeypatch):
    from agents.cli.train_selfplay import Config, train

    monkeypatch.setenv("WORLD_SIZE", "2")
    with pytest.raises(ValueError, match="does not run under torchrun"):
        train(Config())
