//! World messages (`GMSG_*`, tome VI) queued by any system and delivered in
//! the dispatch step of the calculation pass, in posting order.
//!
//! The names and the local/network split are from the spec; payload layouts
//! are not yet proven, so payloads travel as raw bytes.

use crate::id::{NoSuchObject, ObjectRegistry, OriginalObjectId};
use bevy::prelude::*;

/// The world message surface of tome VI.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Reflect,
    serde::Serialize,
    serde::Deserialize,
)]
pub enum GmsgKind {
    CreateRemotePlayer,
    AppendResource,
    ChangeObjectOwner,
    SetPlayerData,
    MissionDataPath,
    TakeObject,
    TextForPlayer,
    SyncState,
    CreateMirror,
    PauseRemotePlayer,
    ConfirmPlayerData,
    KillPlayer,
    SysSetTime,
    SysSetPlayerNumber,
    EndMessageSeq,
    RemoveResource,
    CollisionDetected,
    /// An order for one unit: the engine's own kind (tome VI names no order
    /// message); its payload is Behavior's order packet.
    Order,
}

impl GmsgKind {
    /// The original name (the engine's own for [`GmsgKind::Order`]).
    pub fn name(self) -> &'static str {
        match self {
            GmsgKind::CreateRemotePlayer => "GMSG_CREATE_REMOTE_PLAYER",
            GmsgKind::AppendResource => "GMSG_APPEND_RESOURCE",
            GmsgKind::ChangeObjectOwner => "GMSG_CHANGE_OBJECT_OWNER",
            GmsgKind::SetPlayerData => "GMSG_SET_PLAYER_DATA",
            GmsgKind::MissionDataPath => "GMSG_MISSION_DATA_PATH",
            GmsgKind::TakeObject => "GMSG_TAKE_OBJECT",
            GmsgKind::TextForPlayer => "GMSG_TEXT_FOR_PLAYER",
            GmsgKind::SyncState => "GMSG_SYNC_STATE",
            GmsgKind::CreateMirror => "GMSG_CREATE_MIRROR",
            GmsgKind::PauseRemotePlayer => "GMSG_PAUSE_REMOTE_PLAYER",
            GmsgKind::ConfirmPlayerData => "GMSG_CONFIRM_PLAYER_DATA",
            GmsgKind::KillPlayer => "GMSG_KILL_PLAYER",
            GmsgKind::SysSetTime => "SYSMSG_SET_TIME",
            GmsgKind::SysSetPlayerNumber => "SYSMSG_SET_PLAYER_NUMBER",
            GmsgKind::EndMessageSeq => "GMSG_END_MESSAGE_SEQ",
            GmsgKind::RemoveResource => "GMSG_REMOVE_RESOURCE",
            GmsgKind::CollisionDetected => "GMSG_COLLISION_DETECTED",
            GmsgKind::Order => "IRON3D_ORDER",
        }
    }

    /// Whether the message may cross the network (tome VI: collisions stay
    /// in the local queue).
    pub fn is_networked(self) -> bool {
        self != GmsgKind::CollisionDetected
    }
}

/// A delivered world message.
#[derive(Message, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WorldMessage {
    /// Posting sequence number: the stable delivery order.
    pub seq: u64,
    pub kind: GmsgKind,
    /// The object addressed, if any (a live object at delivery).
    pub target: Option<OriginalObjectId>,
    pub payload: Vec<u8>,
}

/// A message that could not be delivered because its target is gone.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct Undeliverable {
    pub seq: u64,
    pub kind: GmsgKind,
    pub reason: NoSuchObject,
}

/// Messages posted and not yet delivered.
#[derive(Resource, Default, Debug, serde::Serialize, serde::Deserialize)]
pub struct WorldOutbox {
    next_seq: u64,
    pending: Vec<WorldMessage>,
}

impl WorldOutbox {
    /// Posts a message for delivery in the next dispatch step; returns its
    /// sequence number.
    pub fn post(
        &mut self,
        kind: GmsgKind,
        target: Option<OriginalObjectId>,
        payload: Vec<u8>,
    ) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.pending.push(WorldMessage {
            seq,
            kind,
            target,
            payload,
        });
        seq
    }

    /// Number of messages waiting.
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<WorldOutbox>()
        .add_message::<WorldMessage>()
        .add_message::<Undeliverable>()
        .add_systems(
            FixedUpdate,
            dispatch.in_set(iron3d_schedules::SimStep::Dispatch),
        );
}

/// Delivers posted messages in sequence order; a message whose target is
/// not a live object becomes [`Undeliverable`], never another object's.
fn dispatch(
    mut outbox: ResMut<WorldOutbox>,
    registry: Res<ObjectRegistry>,
    mut delivered: MessageWriter<WorldMessage>,
    mut failed: MessageWriter<Undeliverable>,
) {
    for message in outbox.pending.drain(..) {
        match message.target.map(|id| registry.entity(id)) {
            Some(Err(reason)) => {
                failed.write(Undeliverable {
                    seq: message.seq,
                    kind: message.kind,
                    reason,
                });
            }
            _ => {
                delivered.write(message);
            }
        }
    }
}
