//! A request whose client has gone is dropped with everything it runs
//! (docs/16-placement.md, "Deadlines"): its transaction rolls back instead
//! of committing a change nobody will be told of, and its database
//! connection returns to the pool.
//!
//! actix-web goes on with a request after its client closed the connection
//! (actix-web issue 1313), so the server keeps a duplicate of each TCP
//! connection's socket ([`watch`], its `on_connect` hook) and the deadline
//! middleware races each request with the peer's close ([`Peer::gone`]).
//! As Go's `net/http` does, a connection whose peer has shut its sending
//! side counts as closed: a proxy that gives up on a node (nginx at its
//! read timeout) closes it, and a client that only half-closes after its
//! request is rare enough to lose its answer.

use std::any::Any;
use std::os::fd::AsFd;
use std::sync::Arc;

use actix_web::dev::Extensions;
use tokio::io::Interest;

/// The socket of the connection a request came on, watched for its peer
/// closing it.
#[derive(Clone, Debug)]
pub(crate) struct Peer(Arc<tokio::net::TcpStream>);

/// `HttpServer::on_connect`: keeps a duplicate of a TCP connection's socket
/// in the connection's data, registered with the worker's reactor. The
/// duplicate shares the socket (and its non-blocking mode) and is closed
/// with the connection's data; a connection that is not TCP, or whose
/// socket cannot be duplicated, is simply not watched.
pub(crate) fn watch(connection: &dyn Any, data: &mut Extensions) {
    let Some(tcp) = connection.downcast_ref::<actix_web::rt::net::TcpStream>() else {
        return;
    };
    let duplicate = tcp.as_fd().try_clone_to_owned().map(std::net::TcpStream::from);
    if let Ok(stream) = duplicate.and_then(tokio::net::TcpStream::from_std) {
        data.insert(Peer(Arc::new(stream)));
    }
}

impl Peer {
    /// Resolves when the peer has closed the connection or shut its side
    /// (a FIN or a reset). Data arriving (a body actix has yet to read, a
    /// pipelined request) wakes it once and is left for actix to read.
    pub(crate) async fn gone(&self) {
        loop {
            match self.0.ready(Interest::READABLE).await {
                Ok(ready) if !ready.is_read_closed() => {
                    // Readable only: forget this readiness, wait for the next.
                    let _ = self
                        .0
                        .try_io(Interest::READABLE, || Err::<(), _>(std::io::ErrorKind::WouldBlock.into()));
                }
                _ => return,
            }
        }
    }
}
