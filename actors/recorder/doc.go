// Package recorder is the recorder room: every recorded world's pages and
// its clients' commands, kept privately in the state dir and bounded, and
// written out as a Playwright trace (actors/recorder/pwtrace) or a video
// (actors/recorder/video).
//
// What it records comes from sessions of its own that no client sees: a
// CDP connection per instance's browser, attached to each page of a
// recorded world (its screencast frames, acknowledged at a pace that keeps
// a busy page under its byte budget, made smaller for a page whose
// frames outgrow it; its navigations, console messages,
// page errors and network requests without bodies or header values but a
// content type), and a stage in each world client's relay (its tap) that
// notes the client's commands as actions under the journal's privacy
// rule: no evaluated text, no typed text, no cookie values. Downloads, a
// human's takeover and request_human come through its hooks; a browser's
// crash and relaunch from the browser's events.
//
// It plugs into the coordinator (actors/plug) as a Feature, a Stager, an
// InstanceWatcher, a Mounter (GET /cdpvisor/worlds/NAME/trace and the
// recording the live view plays back) and a WorldHooker (the record switch
// of a world request).
package recorder
