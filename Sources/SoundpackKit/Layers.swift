// SoundpackKit is the top of the engine: `import SoundpackKit` brings every layer, lowest first.
// Package.swift draws the layers' arrows; this file only re-exports them.

@_exported import SoundpackSupport
@_exported import SoundpackAudio
@_exported import SoundpackPack
@_exported import SoundpackCatalog
@_exported import SoundpackValidation
@_exported import SoundpackRendering
@_exported import SoundpackSynthesis
@_exported import SoundpackStore
@_exported import SoundpackPublish
@_exported import SoundpackExport
@_exported import SoundpackPush
@_exported import SoundpackReports
