"""Perception: reads the table from a camera photo. Imports the engine, never the device."""

# ``calibrate`` (the function) lives in ``zefiria.vision.calibrate`` and is not re-exported
# here: the name would shadow that module, which other packages import by name.
from .calibrate import CalibrationError
from .photo_io import PhotoError, load_photo
from .profile import Profile, ProfileError, load_profile, save_profile
from .reader import read_table
from .reading import Reading, Status

__all__ = [
    "CalibrationError",
    "PhotoError",
    "Profile",
    "ProfileError",
    "Reading",
    "Status",
    "load_photo",
    "load_profile",
    "read_table",
    "save_profile",
]
