import numpy as np
import pytest

from pipeline.deck_space import DeckSpace


@pytest.fixture(scope="session")
def space() -> DeckSpace:
    return DeckSpace.from_pool_file()


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)
