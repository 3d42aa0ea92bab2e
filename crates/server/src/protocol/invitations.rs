//! Invitations' wire types: an invitation to a table as both its sides are
//! told it (`notify`'s `invitation`, `invitation_accepted`,
//! `invitation_declined`) and as `GET /api/invite` lists it, an invite link
//! (`POST /api/table/{id}/invite-link`), what a link offers to whoever opens
//! it, and where an accepted invitation seated its person. The core's, so that
//! the wire types name no feature; the invitations feature speaks them.

use serde::Serialize;
use ts_rs::TS;

/// An invitation of one person to a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct InvitationNote {
    /// The invitation's secret id, which its answers name.
    pub id: String,
    /// Who invites.
    pub from: String,
    /// Who is invited (for a link taken: who took it).
    pub to: String,
    pub table: String,
    pub game: String,
    /// `invitation_declined`: the reason given (`generic`, `later`, `busy`,
    /// `tooFast`, `tooSlow`, `rated`, `casual`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
}

/// `POST /api/table/{id}/invite-link`: a link that seats whoever opens it
/// first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct InviteLink {
    /// The link's secret.
    pub token: String,
    pub table: String,
    /// The link's path on this server (`/#/join/{token}`).
    pub url: String,
}

/// `GET /api/invite/link/{token}`: what a link offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct LinkView {
    pub table: String,
    pub game: String,
    /// Who made the link.
    pub from: String,
    /// Whether its seat is still free to take.
    pub open: bool,
    /// Who took its seat.
    pub taken_by: Option<String>,
}

/// An accepted invitation or a taken link: the table and the seat there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SeatedAt {
    pub table: String,
    pub seat: u8,
}
