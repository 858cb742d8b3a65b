// Test doubles for code that uses NetworkLayer.
