"""Every message the server reads and writes, declared once: the request bodies and client messages
(:mod:`.schemas`, validated by msgspec), refusals in words (:mod:`.schema_refusals`), the WebSocket protocol
(:mod:`.protocol`) and the protocol's reference page written from them (:mod:`.schema_docs`)."""
