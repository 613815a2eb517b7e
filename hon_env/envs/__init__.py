"""Front ends over the engine: the batched vector API (and, later, PettingZoo/Gymnasium)."""
