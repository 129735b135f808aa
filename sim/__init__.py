"""The simulated board: implements the hal protocols in memory, with noise and virtual hands."""
