"""The old name of ``hon_env.spec.layout``, the same module (the vocabulary floor moved to
``hon_env/spec/``); new code imports ``hon_env.spec.layout``."""

import sys

from hon_env.spec import layout

sys.modules[__name__] = layout
