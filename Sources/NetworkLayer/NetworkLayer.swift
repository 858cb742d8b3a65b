// The NetworkLayer library; the core issue fills it.
