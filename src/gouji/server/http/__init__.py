"""The server's HTTP and WebSocket plumbing, below everything that uses it: the door every request passes
(:mod:`.guard`: security headers, per-client keys, same-origin checks, socket counts), a WebSocket's outgoing
side (:mod:`.connection`), the transport's fast path (:mod:`.fast_send`) and the direct way in for play
(:mod:`.play_socket`)."""
