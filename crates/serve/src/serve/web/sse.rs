//! `/events`: server-sent events telling a page what changed that its
//! viewer may see (see `events::Notice::audience`). A page that falls
//! behind is told to reload.

use std::convert::Infallible;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::wrappers::errors::BroadcastStreamRecvError;
use tokio_stream::{Stream, StreamExt};

use super::Shared;
use super::identity::Viewer;
use crate::serve::accounts::Role;
use crate::serve::events::Listener;

pub async fn events(
    State(app): State<Shared>,
    viewer: Viewer,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let who = match &viewer.session {
        Some(s) if s.account.role == Role::Team => Listener::Team(s.account.id),
        Some(_) => Listener::Jury,
        None => Listener::Public,
    };
    let hello = tokio_stream::once(Ok(Event::default().event("hello").data("{}")));
    // Only the channels of this viewer's audience: a notice wakes the pages
    // that may show it, not every open page.
    let heard = app
        .hub
        .listen_as(who)
        .into_iter()
        .map(BroadcastStream::new)
        .enumerate()
        .collect::<tokio_stream::StreamMap<usize, _>>()
        .map(|(_, n)| n);
    let stream = heard.filter_map(move |n| match n {
        Ok(n) if n.audience(who) => {
            let (name, data) = n.sse();
            Some(Ok(Event::default().event(name).data(data)))
        }
        Ok(_) => None,
        Err(BroadcastStreamRecvError::Lagged(_)) => {
            Some(Ok(Event::default().event("reload").data("{}")))
        }
    });
    Sse::new(hello.chain(stream)).keep_alive(KeepAlive::default())
}
