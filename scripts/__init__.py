"""Benchmarks and the load test (run from the project root)."""
