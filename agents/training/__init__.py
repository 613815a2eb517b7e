"""What the training scripts share: YAML configs with command-line overrides, run logs
(CSV, TensorBoard, progress bar) and periodic evaluation against the baselines."""
