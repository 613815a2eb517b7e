#!/usr/bin/env bash
# Learning curves of docs/baselines.md: 3 seeds of MAPPO and of MaskablePPO on Origin
# Story with the configs in configs/train/ (step budgets below), then the plots. Usage:
#   bash scripts/learning_curves.sh [runs/curves]
#   MAPPO_STEPS=5000000 PPO_STEPS=1000000 bash scripts/learning_curves.sh
set -euo pipefail
out=${1:-runs/curves}
py=${PY:-.venv/bin/python}
mappo_steps=${MAPPO_STEPS:-3000000}
ppo_steps=${PPO_STEPS:-600000}
for seed in 0 1 2; do
  "$py" scripts/train_mappo.py --seed "$seed" --run-dir "$out/mappo_s$seed" --progress false \
    --total-steps "$mappo_steps" --eval-every 250000
done
for seed in 0 1 2; do
  "$py" scripts/train_ppo.py --seed "$seed" --run-dir "$out/ppo_s$seed" --progress false \
    --total-steps "$ppo_steps" --eval-every 100000
done
"$py" scripts/plot_curves.py --out docs/img/curves_mappo.png \
  --title "MAPPO, Origin Story (3 seeds)" "$out"/mappo_s{0,1,2}
"$py" scripts/plot_curves.py --out docs/img/curves_ppo.png \
  --title "MaskablePPO, Origin Story (3 seeds)" "$out"/ppo_s{0,1,2}
