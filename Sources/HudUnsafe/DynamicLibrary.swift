package import HudModel
import Glibc

/// A shared object opened with `dlopen`. Every `dlopen`, `dlsym` and
/// `dlerror` of the package lives in this file.
///
/// Libraries are opened `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE` and never
/// closed: unloading a Swift image crashes the host at its next conformance
/// lookup, and a renderer's descriptors must stay valid for the life of the
/// registry anyway. The handle is kept only to look up the entry symbol.
package struct DynamicLibrary {
    package let path: String
    private let handle: UnsafeMutableRawPointer

    /// Opens the file at `path` (which must contain a `/`, so the loader never
    /// searches its own paths or the working directory for it).
    package static func open(path: String) throws(RegistryError) -> DynamicLibrary {
        precondition(path.contains("/"), "DynamicLibrary.open needs a path, not a bare name")
        _ = dlerror()  // clear any stale error
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            throw .openFailed(path: path, dlerror: lastError() ?? "unknown dlopen failure")
        }
        return DynamicLibrary(path: path, handle: handle)
    }

    /// The address of `symbol` in this library (or its dependencies).
    package func address(of symbol: String) throws(RegistryError) -> UnsafeMutableRawPointer {
        _ = dlerror()
        guard let address = dlsym(handle, symbol) else {
            throw .missingEntrySymbol(path: path, symbol: symbol, dlerror: Self.lastError() ?? "symbol resolves to NULL")
        }
        return address
    }

    /// True when `symbol` is defined anywhere in this process (the
    /// executable or a library already loaded); e.g. `__asan_init` tells
    /// that the process runs under AddressSanitizer.
    package static func processDefines(_ symbol: String) -> Bool {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) != nil  // RTLD_DEFAULT
    }

    private static func lastError() -> String? {
        guard let message = dlerror() else { return nil }
        return String(cString: message)
    }
}
