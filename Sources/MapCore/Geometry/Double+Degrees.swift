extension Double {
    /// This angle in degrees wrapped into [0, 360): -90 becomes 270 and 720 becomes 0.
    ///
    /// A negative remainder so small that adding 360 rounds to 360 gives 0, so the result is
    /// never 360. NaN and infinities give NaN.
    var degreesWrappedTo360: Double {
        let remainder = truncatingRemainder(dividingBy: 360)
        let wrapped = remainder < 0 ? remainder + 360 : remainder
        return wrapped == 360 ? 0 : wrapped
    }
}
