"""The read path: retrieve from both indexes, fuse, rank and shape results; filters, the dense side, coverage."""
