import Testing

/// Placeholder so the `FlyrTests` target declared in Package.swift has a source file.
@Suite struct FlyrTests {}
