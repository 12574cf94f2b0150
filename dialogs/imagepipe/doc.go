// Package imagepipe turns the images a user attaches to an answer (pasted,
// dropped or picked) into attachments that are safe and cheap to send to an
// agent as MCP image content.
//
// [Process] handles one image: it sniffs the format from the bytes (never the
// file name), reads only the header to refuse decompression bombs, decodes
// PNG, JPEG, GIF (first frame), BMP, TIFF or WebP, applies the EXIF
// orientation of JPEG and TIFF photos, downscales so the long edge fits
// [Limits.MaxEdge], and re-encodes as PNG, or as JPEG when that is much
// smaller for an opaque, photo-like image. Re-encoding drops all metadata
// (EXIF, GPS, XMP, ICC profiles, text chunks).
//
// [Set] holds the attachments of one answer and enforces the count and total
// budgets as images are added.
//
// Every error this package returns is an [*Error] whose message is written
// for the user and can be shown in the question window as is; match it with
// errors.Is against the Err* sentinels. Nothing here panics on any input.
//
// The package has no GUI or I/O dependencies: callers read files or the
// clipboard and pass bytes in.
package imagepipe
