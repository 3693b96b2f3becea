// Package video turns a recording's screencast frames into a WebM video
// (VP8) through the ffmpeg command, for `cdpvisor world trace NAME
// --format webm`.
//
// The frames have a variable frame rate: a page sends one only when it
// changes. WebM spools each JPEG to a private temporary directory (so a
// long recording is never held in memory) and lists them for ffmpeg's
// concat demuxer, each with the time it stays on screen, so the video
// keeps the page's own timing instead of resampling to a fixed rate.
// Frames of other sizes than the first are scaled down to fit it and
// padded, as a WebM has one size.
//
// ffmpeg is not bundled: it must be on PATH (or given with WithFFmpeg);
// without it WebM returns ErrNoFFmpeg, which says how to get it.
package video
