import CGLib

/// Takes ownership of a newly allocated C string (`gchar *`, "transfer full") and frees it.
public func takeString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}

/// Reads a C string GLib still owns ("transfer none").
public func borrowString(_ pointer: UnsafePointer<gchar>?) -> String? {
    pointer.map { String(cString: $0) }
}

/// Takes ownership of a NULL-terminated `gchar **` ("transfer full") and frees it.
public func takeStringArray(_ array: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
    guard let array else { return [] }
    defer { g_strfreev(array) }
    return borrowStringArray(UnsafePointer(array))
}

/// Reads a NULL-terminated string array GLib still owns.
public func borrowStringArray(_ array: UnsafePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
    guard let array else { return [] }
    var result: [String] = []
    var index = 0
    while let item = array[index] {
        result.append(String(cString: item))
        index += 1
    }
    return result
}

/// Reads a NULL-terminated `const gchar * const *` GLib still owns.
public func borrowStringArray(_ array: UnsafePointer<UnsafePointer<gchar>?>?) -> [String] {
    guard let array else { return [] }
    var result: [String] = []
    var index = 0
    while let item = array[index] {
        result.append(String(cString: item))
        index += 1
    }
    return result
}

/// Walks a `GList` of GObjects the caller owns ("transfer full" list and items), handing each
/// item to `body` as an owning `ObjectReference`, then frees the list.
public func takeObjectList(_ list: UnsafeMutablePointer<GList>?) -> [ObjectReference] {
    var result: [ObjectReference] = []
    var node = list
    while let current = node {
        if let data = current.pointee.data {
            // The list owned one reference per item: hand it to the wrapper as is.
            result.append(ObjectReference(adopting: data))
        }
        node = current.pointee.next
    }
    g_list_free(list)
    return result
}

