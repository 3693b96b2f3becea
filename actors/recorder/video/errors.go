package video

import "errors"

// ErrNoFFmpeg is returned when there is no ffmpeg to run. Its text tells a
// user what to do, since it reaches the command line as it is.
var ErrNoFFmpeg = errors.New("ffmpeg not found: a WebM video needs ffmpeg on PATH; " +
	"install it (e.g. `apt-get install ffmpeg` or `brew install ffmpeg`) " +
	"or use the Playwright trace format instead")

// ErrNoFrames is returned when the recording has no frame to make a video of.
var ErrNoFrames = errors.New("no frames to make a video of")
