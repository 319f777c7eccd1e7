"""CP-SAT formulations of level design requests (see ice_cpsat.build_model)."""
