import pytest


@pytest.fixture(autouse=True)
def private_cache_dir(tmp_path_factory, monkeypatch):
    """Every JIT test writes its object cache to a temporary directory, never to ~/.cache."""
    monkeypatch.setenv("LOOMCL_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "loomcl-cache"))
