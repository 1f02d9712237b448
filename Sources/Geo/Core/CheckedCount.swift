/// Counts and positions in the 32-bit slots of flyr's compact tables (feature slots, address
/// rows, text offsets), converted with a check instead of a trap.
public enum CheckedCount {
    /// `value` as an Int32; throws `InputError` (`tooLarge`, naming `what` and `file`) when it
    /// is negative or above Int32.max (2,147,483,647).
    public static func int32(_ value: Int, _ what: String, file: String = "") throws(InputError) -> Int32 {
        guard let v = Int32(exactly: value), v >= 0 else {
            throw InputError(.tooLarge, file: file, detail: "\(value) \(what): flyr holds at most \(Int32.max)")
        }
        return v
    }
}
