"""Head node of the DSA-ME deck search: deck space, archives, surrogate, algorithms, driver."""
