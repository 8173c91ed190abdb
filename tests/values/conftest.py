import pytest
import torch


@pytest.fixture(autouse=True, scope="session")
def one_torch_thread():
    """The value tests train tiny models: one thread is faster than several on a shared machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
