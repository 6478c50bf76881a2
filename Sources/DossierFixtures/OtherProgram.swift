import Foundation

/// Another program touching the user's files, for tests that check Dossier gets along with
/// it: Debian's own Python with GLib and GTK (`/usr/bin/python3`, python3-gi), or a shell.
public enum OtherProgram {
    public struct Result {
        public let status: Int32
        public let output: String
        public let errors: String
    }

    /// Python with `glib`, a ctypes handle on libglib-2.0 with the GBookmarkFile functions
    /// declared (PyGObject cannot make a GBookmarkFile with GLib 2.74), and helpers:
    /// `load(path)` → a GBookmarkFile, `uris(bf)`, `mime(bf, uri)`, `app_info(bf, uri, name)`
    /// → `(exec, count)` or None, `save(bf, path)`.
    public static let bookmarkFilePrelude = #"""
    import ctypes, sys
    from ctypes import c_void_p, c_char_p, c_size_t, c_uint, c_int, POINTER, byref
    glib = ctypes.CDLL("libglib-2.0.so.0")
    glib.g_bookmark_file_new.restype = c_void_p
    glib.g_bookmark_file_load_from_file.argtypes = [c_void_p, c_char_p, c_void_p]
    glib.g_bookmark_file_to_file.argtypes = [c_void_p, c_char_p, c_void_p]
    glib.g_bookmark_file_get_uris.argtypes = [c_void_p, POINTER(c_size_t)]
    glib.g_bookmark_file_get_uris.restype = POINTER(c_char_p)
    glib.g_bookmark_file_get_mime_type.argtypes = [c_void_p, c_char_p, c_void_p]
    glib.g_bookmark_file_get_mime_type.restype = c_char_p
    glib.g_bookmark_file_get_application_info.argtypes = [c_void_p, c_char_p, c_char_p, POINTER(c_char_p), POINTER(c_uint), POINTER(c_void_p), c_void_p]
    glib.g_bookmark_file_add_application.argtypes = [c_void_p, c_char_p, c_char_p, c_char_p]
    glib.g_bookmark_file_set_mime_type.argtypes = [c_void_p, c_char_p, c_char_p]
    glib.g_bookmark_file_set_is_private.argtypes = [c_void_p, c_char_p, c_int]
    def load(path):
        bf = glib.g_bookmark_file_new()
        if not glib.g_bookmark_file_load_from_file(bf, path.encode(), None):
            sys.exit("GLib could not parse " + path)
        return bf
    def uris(bf):
        n = c_size_t()
        array = glib.g_bookmark_file_get_uris(bf, byref(n))
        return [array[i].decode() for i in range(n.value)]
    def mime(bf, uri):
        value = glib.g_bookmark_file_get_mime_type(bf, uri.encode(), None)
        return value.decode() if value else None
    def app_info(bf, uri, name):
        exec_, count, stamp = c_char_p(), c_uint(), c_void_p()
        if not glib.g_bookmark_file_get_application_info(bf, uri.encode(), name.encode(), byref(exec_), byref(count), byref(stamp), None):
            return None
        return (exec_.value.decode(), count.value)
    def save(bf, path):
        import os
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if not glib.g_bookmark_file_to_file(bf, path.encode(), None):
            sys.exit("GLib could not write " + path)
    """#

    /// Runs `script` with Debian's Python; `arguments` land in `sys.argv[1:]`.
    public static func python(_ script: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> Result {
        try run("/usr/bin/python3", ["-c", script] + arguments, environment: environment)
    }

    /// Runs a shell command line.
    public static func shell(_ command: String, environment: [String: String] = [:]) throws -> Result {
        try run("/bin/sh", ["-c", command], environment: environment)
    }

    /// Runs `program` to completion with this process's environment plus `environment`.
    public static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read standard error meanwhile, so a full pipe cannot stall the program.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                      errors: String(decoding: errorData, as: UTF8.self))
    }
}
