"""The old name of ``hon_env.spec.obs_features``, the same module (the vocabulary floor moved to
``hon_env/spec/``); new code imports ``hon_env.spec.obs_features``."""

import sys

from hon_env.spec import obs_features

sys.modules[__name__] = obs_features
