"""The old name of ``hon_env.spec.tables``, the same module (the vocabulary floor moved to
``hon_env/spec/``); new code imports ``hon_env.spec.tables``."""

import sys

from hon_env.spec import tables

sys.modules[__name__] = tables
