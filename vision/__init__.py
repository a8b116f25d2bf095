"""Perception: reads the table from a camera photo. Imports the engine, never the device."""
