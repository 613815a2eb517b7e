"""The batched rules engine: numba kernels over a ``[B, STATE_LEN]`` int32 state.

The kernels' on-disk cache is keyed on the engine sources by ``hon_env/numba_cache.py``
(the parent package sets it up before any kernel module is imported).
"""
