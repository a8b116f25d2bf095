"""Camera sources: the picamera2 adapter against a stand-in with picamera2's own API, the
webcam against a stand-in VideoCapture, a folder of photos and the simulated table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from zefiria.device.camera import (
    CameraError,
    CameraSource,
    PhotoFolder,
    PiCamera,
    SimulatedTable,
    Webcam,
    open_camera,
)
from zefiria.device.config import CameraConfig


def _scene(width: int, height: int) -> np.ndarray:
    """A smooth colour picture (YUV 4:2:0 keeps it nearly exact)."""
    x = np.linspace(0, 255, width, dtype=np.float32)
    y = np.linspace(0, 255, height, dtype=np.float32)
    image = np.zeros((height, width, 3), np.uint8)
    image[:, :, 0] = x[None, :]
    image[:, :, 1] = y[:, None]
    image[:, :, 2] = 128
    return image


class FakePicamera2:
    """The slice of picamera2.Picamera2 the adapter uses, with the same names and shapes."""

    def __init__(self, camera_num: int = 0, autofocus: bool = True) -> None:
        self.camera_num = camera_num
        self.camera_controls: dict[str, tuple[Any, Any, Any]] = {
            "ExposureTime": (75, 11766829, None)
        }
        if autofocus:
            self.camera_controls["AfMode"] = (0, 2, 0)
        self.calls: list[str] = []
        self.controls: dict[str, Any] = {}
        self.config: dict[str, Any] | None = None
        self.started = False
        self.fail_with: Exception | None = None
        self.return_none = False

    def create_still_configuration(
        self,
        main: dict[str, Any] | None = None,
        lores: dict[str, Any] | None = None,
        raw: dict[str, Any] | None = None,
        buffer_count: int = 1,
        **kwargs: Any,
    ) -> dict[str, Any]:
        self.calls.append("create_still_configuration")
        assert main is not None and lores is not None
        # libcamera pads a YUV420 row to a multiple of 64 bytes (the "stride")
        lw = lores["size"][0]
        stride = (lw + 63) // 64 * 64
        return {
            "use_case": "still",
            "main": {**main, "stride": main["size"][0] * 3},
            "lores": {**lores, "stride": stride},
            "buffer_count": buffer_count,
        }

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append("configure")
        self.config = config

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append("set_controls")
        self.controls.update(controls)

    def start(self) -> None:
        self.calls.append("start")
        assert self.config is not None, "configure before start"
        self.started = True

    def capture_array(self, name: str = "main") -> np.ndarray | None:
        self.calls.append(f"capture_array:{name}")
        assert self.started and self.config is not None
        if self.fail_with is not None:
            raise self.fail_with
        if self.return_none:
            return None
        stream = self.config[name]
        w, h = stream["size"]
        bgr = _scene(w, h)
        if stream["format"] == "RGB888":  # [B, G, R] in memory, as OpenCV wants
            return bgr
        assert stream["format"] == "YUV420"
        yuv = cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420)  # (h * 3/2, w)
        padded = np.zeros((h * 3 // 2, stream["stride"]), np.uint8)
        # Y rows keep their width; each U/V array row holds two half-width rows
        padded[:h, :w] = yuv[:h]
        chroma = yuv[h:].reshape(-1, w // 2)
        for i in range(chroma.shape[0] // 2):
            padded[h + i, : w // 2] = chroma[2 * i]
            padded[h + i, stream["stride"] // 2 : stream["stride"] // 2 + w // 2] = chroma[
                2 * i + 1
            ]
        return padded

    def stop(self) -> None:
        self.calls.append("stop")
        self.started = False

    def close(self) -> None:
        self.calls.append("close")


def test_picamera_keeps_one_configuration_and_captures_main_and_lores() -> None:
    cams: list[FakePicamera2] = []
    with PiCamera(
        (1640, 1232), (320, 240), factory=lambda n: cams.append(FakePicamera2(n)) or cams[-1]
    ) as camera:
        assert isinstance(camera, CameraSource)
        still = camera.capture_still()
        preview = camera.grab_preview()
        camera.capture_still()
    fake = cams[0]
    assert still.shape == (1232, 1640, 3) and still.dtype == np.uint8
    assert preview.shape == (240, 320, 3)
    assert fake.calls.count("configure") == 1 and fake.calls.count("start") == 1
    assert fake.config is not None and fake.config["main"]["size"] == (1640, 1232)
    assert fake.config["lores"]["size"] == (320, 240)
    assert fake.calls[-2:] == ["stop", "close"]


def test_picamera_preview_converts_yuv420_with_stride_padding() -> None:
    # 200 px rows are padded to 256 bytes: the adapter must drop the padding
    camera = PiCamera((640, 480), (200, 150), factory=FakePicamera2)
    preview = camera.grab_preview()
    camera.close()
    expected = _scene(200, 150)
    assert preview.shape == expected.shape
    assert np.abs(preview.astype(int) - expected.astype(int)).mean() < 4


def test_picamera_turns_on_continuous_autofocus_only_when_the_module_has_it() -> None:
    with_af = PiCamera(factory=lambda n: FakePicamera2(n, autofocus=True))
    without = PiCamera(factory=lambda n: FakePicamera2(n, autofocus=False))
    assert with_af.autofocus and not without.autofocus
    assert with_af._camera.controls == {"AfMode": 2}
    assert "set_controls" not in without._camera.calls
    off = PiCamera(autofocus=False, factory=FakePicamera2)
    assert "set_controls" not in off._camera.calls
    for camera in (with_af, without, off):
        camera.close()


def test_picamera_failures_are_camera_errors_naming_the_source() -> None:
    def missing(n: int) -> Any:
        raise IndexError("list index out of range")

    with pytest.raises(CameraError, match=r"camera source picamera2: no camera 0 found"):
        PiCamera(factory=missing)
    camera = PiCamera(factory=FakePicamera2)
    camera._camera.fail_with = RuntimeError("Camera frontend has timed out!")
    with pytest.raises(CameraError, match="picamera2: capture from the main stream failed"):
        camera.capture_still()
    camera._camera.fail_with = None
    camera._camera.return_none = True
    with pytest.raises(CameraError, match="picamera2: no still image"):
        camera.capture_still()
    camera.close()
    with pytest.raises(CameraError, match="closed"):
        camera.grab_preview()


def test_picamera_without_the_module_says_how_to_install_it() -> None:
    try:
        import picamera2  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        with pytest.raises(CameraError, match="python3-picamera2"):
            PiCamera()
    else:  # pragma: no cover - on a Pi
        pytest.skip("picamera2 is installed here")


class FakeCapture:
    def __init__(self, frames: list[np.ndarray | None], opened: bool = True) -> None:
        self.frames = frames
        self.opened = opened
        self.settings: dict[int, float] = {}
        self.released = False

    def isOpened(self) -> bool:  # OpenCV's name
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def grab(self) -> bool:  # takes a frame from the driver's queue and drops it
        return self.frames.pop(0) is not None if self.frames else False

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self.frames:
            return False, None
        frame = self.frames.pop(0)
        return frame is not None, frame

    def release(self) -> None:
        self.released = True


def test_webcam_reads_stills_and_small_previews() -> None:
    capture = FakeCapture([_scene(1280, 720)] * 3)
    with Webcam(0, (1280, 720), (320, 180), opener=lambda d: capture) as camera:
        assert camera.capture_still().shape == (720, 1280, 3)
        assert camera.grab_preview().shape == (180, 320, 3)
        assert capture.settings[cv2.CAP_PROP_FRAME_WIDTH] == 1280
        with pytest.raises(CameraError, match=r"webcam 0: no preview frame \(unplugged\?\)"):
            camera.grab_preview()
    assert capture.released


def test_webcam_that_does_not_open_is_a_clear_error() -> None:
    with pytest.raises(CameraError, match="camera source webcam /dev/video9: cannot open it"):
        Webcam("/dev/video9", opener=lambda d: FakeCapture([], opened=False))


def test_photo_folder_gives_photos_in_name_order_then_says_it_is_empty(tmp_path: Path) -> None:
    for i, name in enumerate(["b.png", "a.png", "c.jpg"]):
        cv2.imwrite(str(tmp_path / name), np.full((40, 60, 3), i * 50, np.uint8))
    (tmp_path / "notes.txt").write_text("not a photo")
    camera = PhotoFolder(tmp_path, preview_size=(30, 20))
    assert camera.grab_preview().shape == (20, 30, 3)  # a peek does not use a photo up
    values = [int(camera.capture_still()[0, 0, 0]) for _ in range(3)]
    assert values == [50, 0, 100]  # a.png, b.png, c.jpg
    with pytest.raises(CameraError, match=r"no more photos \(all 3 taken\)"):
        camera.capture_still()
    assert int(camera.grab_preview()[0, 0, 0]) == 100  # the table as last seen


def test_photo_folder_errors(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no such folder"):
        PhotoFolder(tmp_path / "nope")
    with pytest.raises(CameraError, match="no photos in it"):
        PhotoFolder(tmp_path)
    (tmp_path / "broken.png").write_bytes(b"not a png")
    with pytest.raises(CameraError, match=r"broken\.png is not a readable image"):
        PhotoFolder(tmp_path).capture_still()


def test_looping_folder_starts_again(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "only.png"), np.zeros((10, 10, 3), np.uint8))
    camera = PhotoFolder(tmp_path, loop=True)
    for _ in range(3):
        camera.capture_still()


def test_simulated_table_photographs_the_current_render() -> None:
    table = {"image": _scene(640, 480)}
    with SimulatedTable(lambda: table["image"], preview_size=(160, 120)) as camera:
        assert camera.capture_still().shape == (480, 640, 3)
        table["image"] = np.zeros((480, 640), np.uint8)  # grey renders become BGR
        assert camera.capture_still().shape == (480, 640, 3)
        frames = camera.frames()
        assert next(frames).shape == (120, 160, 3)
    assert list(frames) == []  # the stream ends with the source
    with pytest.raises(CameraError, match="simulated table: closed"):
        camera.grab_preview()


def test_simulated_table_failures_are_camera_errors() -> None:
    with pytest.raises(CameraError, match="simulated table: no still image"):
        SimulatedTable(lambda: None).capture_still()

    def broken() -> np.ndarray:
        raise ValueError("no grid")

    with pytest.raises(CameraError, match="the renderer failed: ValueError: no grid"):
        SimulatedTable(broken).grab_preview()
    with pytest.raises(CameraError, match=r"unexpected image shape \(4, 4, 2\)"):
        SimulatedTable(lambda: np.zeros((4, 4, 2), np.uint8)).capture_still()


def test_open_camera_picks_the_configured_source(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "1.png"), np.zeros((10, 10, 3), np.uint8))
    assert isinstance(open_camera(CameraConfig(source="folder", folder=str(tmp_path))), PhotoFolder)
    sim = open_camera(CameraConfig(source="simulated"), render=lambda: _scene(64, 48))
    assert isinstance(sim, SimulatedTable)
    with pytest.raises(CameraError, match="needs a table renderer"):
        open_camera(CameraConfig(source="simulated"))


def test_picamera_that_cannot_start_is_released_and_explained() -> None:
    cams: list[FakePicamera2] = []

    class Busy(FakePicamera2):
        def start(self) -> None:
            raise RuntimeError("Device or resource busy")

    def make(n: int) -> Busy:
        cams.append(Busy(n))
        return cams[-1]

    with pytest.raises(CameraError, match="picamera2: cannot start the camera: Device or"):
        PiCamera(factory=make)
    assert cams[0].calls[-2:] == ["stop", "close"]
