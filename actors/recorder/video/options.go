package video

// Option changes how WebM runs ffmpeg.
type Option func(*options)

type options struct {
	ffmpeg  string // as given; resolved by exec.LookPath
	bitrate int    // bits per second
	tempDir string // "" is os.TempDir()
	// onStart is told ffmpeg's pid once it runs; only tests set it, to
	// cancel at that moment and check the process is gone.
	onStart func(pid int)
}

// DefaultBitrate is the target bit rate: enough for a 1280-wide page whose
// frames mostly repeat.
const DefaultBitrate = 1_000_000

func defaults() options {
	return options{ffmpeg: "ffmpeg", bitrate: DefaultBitrate}
}

// WithFFmpeg runs the ffmpeg at path (a name is looked up on PATH) instead
// of the one on PATH.
func WithFFmpeg(path string) Option { return func(o *options) { o.ffmpeg = path } }

// WithBitrate sets the video's target bit rate in bits per second
// (DefaultBitrate when not positive).
func WithBitrate(bitsPerSecond int) Option {
	return func(o *options) {
		if bitsPerSecond > 0 {
			o.bitrate = bitsPerSecond
		}
	}
}

// WithTempDir puts the frames' temporary directory in dir instead of
// os.TempDir(): the frames of a long recording take room there until the
// video is written.
func WithTempDir(dir string) Option { return func(o *options) { o.tempDir = dir } }

// withOnStart calls f with ffmpeg's pid once it has started.
func withOnStart(f func(pid int)) Option { return func(o *options) { o.onStart = f } }
