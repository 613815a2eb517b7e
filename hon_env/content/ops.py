"""The old name of ``hon_env.spec.ops``, the same module (the vocabulary floor moved to
``hon_env/spec/``); new code imports ``hon_env.spec.ops``."""

import sys

from hon_env.spec import ops

sys.modules[__name__] = ops
