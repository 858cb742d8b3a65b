// The presenter demo; the core issue fills it.
