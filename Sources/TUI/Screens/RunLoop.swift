extension Terminal {
    /// Runs `screen` until it finishes (its result) or is cancelled (nil): the one draw loop.
    ///
    /// Below the screen's minimum size only "Terminal too small" is drawn, so the person sees
    /// neither the list nor the field other keys would act on: while that notice is what they
    /// saw last, only the events `TooSmallNotice.acts` lets through reach the screen (Enter
    /// would otherwise choose a credential never seen). What counts is the last frame drawn,
    /// so the check is made here, where frames are drawn, and not in each screen.
    public func run<S: Screen>(_ screen: inout S) throws -> S.Result? {
        var transition = screen.opening
        while true {
            switch transition {
            case .finish(let result): return result
            case .cancel: return nil
            case .work:
                try present(screen.frame(at: size))
                transition = try screen.work()
                continue
            case .useTheme(let theme): use(theme)
            case .stay: break
            }
            let shown = size
            try present(screen.frame(at: shown))
            let event = try nextEvent()
            if !TooSmallNotice(minimum: screen.minimumSize).fits(shown), !TooSmallNotice.acts(event) {
                transition = .stay
                continue
            }
            transition = screen.handle(event, context: ScreenContext(size: size))
        }
    }
}
