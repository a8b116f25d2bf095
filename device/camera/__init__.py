"""Camera sources: Pi camera, USB webcam, a folder of photos, the simulated table."""
