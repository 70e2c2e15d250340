"""Compute functions, one per paper artefact id, grouped by paper section (one module each)."""
