import Testing
@testable import HudRegistry

struct ModelTests {
    @Test func styleNamesMapToBuiltinIDs() {
        #expect(HudPhoneComplicationsStyle(name: "tray") == .tray)
        #expect(HudPhoneComplicationsStyle(name: "com.hudson.minimal") == .minimal)
        #expect(HudPhoneComplicationsStyle(name: "org.example.ring") == .renderer("org.example.ring"))
    }
}
