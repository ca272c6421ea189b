//! The 73-slot function table (openparkan `docs/15-behaviour.md`, "What
//! the functions do"; docs/facts.md "Scripts"): what a call node reaches.
//!
//! Every slot exists. The slots below are carried out; any other slot
//! gives `ERROR` and is reported once per script, handler, node and slot
//! ([`CallError::Unimplemented`]). Words the engine interprets (`ERROR`,
//! `TRUE`, the `ST_*`, `TAKE_*`, `UNIT_*` and `TARGET_*` words, the orders
//! and insert modes) are the values the script's own `varset.var` gives
//! their names.
//!
//! Stand-ins where the original's helper is not read: a unit's strength is
//! 1; every unit can capture; a distance "of the clan" is measured from
//! the clan's base centre; function 14's nearest capturer is the nearest
//! by distance.

use crate::brain::{Brain, Problem};
use crate::view::{Seen, View, distance};
use crate::vm::{CallError, Host, Value, Variables};
use iron3d_behavior::{InsertMode, OrderKind, OrderPacket, OrderTarget};
use iron3d_economy::Role;
use iron3d_formats::order::ORDER_BUILDING_CONSTRUCT;
use iron3d_formats::script::varset::Value as VarValue;
use iron3d_formats::unitdat::CLASS_BUILDING;
use iron3d_world::mission::RngStreams;

/// The random stream of function 70.
pub const RANDOM_STREAM: &str = "script_random";

/// What function 66 writes for a generator and a factory (docs/15
/// "Units": their meaning is not read).
const GENERATOR_SHARE: f32 = 0.04;
const FACTORY_SHARE: f32 = 0.05;

/// How near a building stands to a lode that it claims (function 40).
const LODE_CLAIM: f32 = 50.0;

/// How far from its factory function 67 counts hostile units (the
/// radar's reach, as the engagement's).
const FACTORY_WATCH: f32 = 500.0;

/// A call of the mission's message callback (functions 30 and 57).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChannelCall {
    /// 0 (function 30) or 2 (function 57).
    pub channel: u8,
    pub kind: u32,
    pub value: u32,
}

/// One handler run's reach: the brain, the world as it was when the batch
/// began, and what the run asks of the engine.
pub struct Call<'a> {
    pub brain: &'a mut Brain,
    pub view: &'a View,
    pub rng: &'a mut RngStreams,
    /// The problem whose handler runs, by position.
    pub problem: Option<usize>,
    /// Orders to post, in call order.
    pub orders: &'a mut Vec<(u32, OrderPacket)>,
    pub channel: &'a mut Vec<ChannelCall>,
    /// (handler, node, slot) of calls to unimplemented slots.
    pub unimplemented: &'a mut Vec<(usize, usize, u32)>,
}

type Answer = Result<Option<Value>, CallError>;

fn dword(v: u32) -> Answer {
    Ok(Some(Value::Dword(v)))
}

fn fault(cause: impl Into<String>) -> CallError {
    CallError::Fault(cause.into())
}

impl Call<'_> {
    fn error(&self) -> u32 {
        // STAND-IN: `0xffffffff` when the varset lacks `ERROR` (the engine
        // resolves it by name, docs/15); settled by a retail varset
        // without it, or the engine's compiled fallback.
        self.brain.word("ERROR").unwrap_or(u32::MAX)
    }

    fn is(&self, value: u32, name: &str) -> bool {
        self.brain.word(name) == Some(value)
    }

    fn running(&mut self) -> Result<&mut Problem, CallError> {
        let i = self.problem.ok_or_else(|| fault("no problem is running"))?;
        self.brain
            .problems
            .get_mut(i)
            .ok_or_else(|| fault("the running problem is gone"))
    }

    /// This clan's live units that `take` accepts, nearest to `from` first
    /// when given (ids ascending otherwise and among equals).
    fn units(&self, from: Option<[f32; 2]>, take: impl Fn(u32) -> bool) -> Vec<u32> {
        let mut list: Vec<(u32, f32)> = self
            .view
            .objects
            .iter()
            // STAND-IN: destroyed units are left out (docs/34 reads the
            // list as never shrinking, but the game was seen counting
            // losses); settled by counting a retail clan's units after a
            // loss through a script.
            .filter(|(id, o)| o.unit && !o.destroyed && o.clan == self.brain.clan && take(**id))
            .map(|(&id, o)| (id, from.map_or(0.0, |f| distance(f, o.at))))
            .collect();
        list.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        list.into_iter().map(|(id, _)| id).collect()
    }

    /// Free (held by no problem, not reserved), or held by a lighter
    /// problem than the running one when `lighter`.
    fn available(&self, id: u32, lighter: bool) -> bool {
        if self.brain.reserved.contains(&id) {
            return false;
        }
        match self.brain.holder_weight(id) {
            None => true,
            Some(w) => {
                let running = self.problem.and_then(|p| self.brain.problems.get(p));
                lighter && running.is_some_and(|r| w < r.weight)
            }
        }
    }

    /// A target from its kind word and the operands after it: an object's
    /// id, or a place (x, y).
    fn target(&self, vars: &Variables, kind: u32, rest: &[i32]) -> Result<OrderTarget, CallError> {
        let arg = |i: usize| -> Result<Value, CallError> {
            let v = *rest
                .get(i)
                .ok_or_else(|| fault("a target operand is missing"))?;
            vars.get(v as u32).map_err(fault)
        };
        if self.is(kind, "TARGET_BY_LOGIC_ID") {
            Ok(OrderTarget::Object(arg(0)?.dword()))
        } else if self.is(kind, "TARGET_BY_PLACE") {
            Ok(OrderTarget::Place([arg(0)?.float(), arg(1)?.float(), 0.0]))
        } else if self.is(kind, "TARGET_BY_NAME") {
            // The name is a STRING variable's text.
            let v = *rest
                .first()
                .ok_or_else(|| fault("a target operand is missing"))?;
            let declared = self.brain.bundle.vars.get(v as u32).map(|d| &d.default);
            let Some(VarValue::Str(name)) = declared else {
                return Err(fault(format!("variable {v} is no STRING to name a target")));
            };
            OrderTarget::name(name).ok_or_else(|| fault(format!("{name:?} is too long a name")))
        } else {
            Ok(OrderTarget::None)
        }
    }

    /// Where a target is on the ground.
    fn target_at(&self, target: OrderTarget) -> Option<[f32; 2]> {
        match target {
            OrderTarget::Object(id) => self.view.objects.get(&id).map(|o| o.at),
            OrderTarget::Place(p) => Some([p[0], p[1]]),
            OrderTarget::None | OrderTarget::Name(_) => None,
        }
    }

    /// An order packet from (order, insert, parameter, four floats, target
    /// kind, target...) operands; `None` when the order or insert word
    /// names nothing this engine carries out.
    fn packet(&self, vars: &Variables, args: &[i32]) -> Result<Option<OrderPacket>, CallError> {
        if args.len() < 8 {
            return Err(fault(format!(
                "an order needs 8 operands, found {}",
                args.len()
            )));
        }
        let value = |i: usize| vars.get(args[i] as u32).map_err(fault);
        let (order, insert) = (value(0)?.dword(), value(1)?.dword());
        let parameter = value(2)?.dword() as i32;
        let code = OrderKind::ALL
            .iter()
            .find(|k| self.is(order, k.name()))
            .map(|k| k.code())
            .or_else(|| {
                let build = self.is(order, "ORDER_BUILDING_CONSTRUCT");
                build.then_some(ORDER_BUILDING_CONSTRUCT)
            });
        let mode = [
            ("INSERT_ORDER_END", InsertMode::End),
            ("INSERT_ORDER_START", InsertMode::Start),
            ("INSERT_ORDER_REPLACE", InsertMode::Replace),
        ]
        .into_iter()
        .find(|(name, _)| self.is(insert, name))
        .map(|(_, m)| m);
        let target = self.target(vars, value(7)?.dword(), &args[8..])?;
        Ok(code.zip(mode).map(|(code, mode)| OrderPacket {
            code,
            target,
            mode,
            parameter,
        }))
    }

    /// Gives `id` the order: 1 taken, 0 refused, 5 no such unit. A unit
    /// takes a unit's orders; a factory of the clan a build.
    fn order(&mut self, id: u32, packet: Option<OrderPacket>) -> u32 {
        let clan = self.brain.clan;
        let takes = |o: &Seen, p: &OrderPacket| match p.code == ORDER_BUILDING_CONSTRUCT {
            true => o.factory() && o.clan == clan,
            false => o.unit,
        };
        match (self.view.objects.get(&id), packet) {
            (None, _) => 5,
            (Some(o), Some(packet)) if takes(o, &packet) && !o.destroyed => {
                self.orders.push((id, packet));
                1
            }
            _ => 0,
        }
    }

    /// The live units of `clan` within `radius` of `at`: the strength
    /// there, a unit's strength being 1.
    // STAND-IN: the strength helper (docs/15 "Places and targets": guns
    // and life left over the objects within the radius) is not read; a
    // unit counts 1, as for `TAKE_BY_HITS`.
    fn strength(&self, clan_of: impl Fn(u32) -> bool, at: [f32; 2], radius: f32) -> f32 {
        let near = self
            .view
            .objects
            .values()
            .filter(|o| o.unit && !o.destroyed && clan_of(o.clan))
            .filter(|o| distance(o.at, at) <= radius)
            .count();
        near as f32
    }

    /// An enemy building to capture (function 35): of those no standing
    /// `PBM_BUILDING_CAPTURE` problem of the clan names, the first kind
    /// present of generator, factory, mine, research centre, storage,
    /// anything else, and of that kind the one its own clan holds least
    /// within `f` of it; its strength written out. `ERROR` for none.
    fn building_to_capture(&self, vars: &mut Variables, args: &[i32]) -> Answer {
        let radius = vars
            .get(*args.first().ok_or_else(|| fault("no radius"))? as u32)
            .map_err(fault)?
            .float();
        let clan = self.brain.clan;
        let claimed = |id: u32| {
            self.brain
                .problems
                .iter()
                .any(|p| p.name == "PBM_BUILDING_CAPTURE" && p.params[0] == id)
        };
        let rank = |o: &Seen| {
            let order = [
                Role::Generator,
                Role::Plant,
                Role::Mine,
                Role::Institute,
                Role::Storage,
            ];
            o.role
                .and_then(|r| order.iter().position(|x| *x == r))
                .unwrap_or(order.len())
        };
        let candidates = self.view.objects.iter().filter(|(id, o)| {
            o.type_word & CLASS_BUILDING != 0
                && !o.destroyed
                && self.view.hostile(clan, o.clan)
                && !claimed(**id)
        });
        let mut best: Option<(usize, f32, u32)> = None;
        for (&id, o) in candidates {
            let held = self.strength(|c| c == o.clan, o.at, radius);
            let better = best.is_none_or(|(r, s, _)| (rank(o), held) < (r, s));
            if better {
                best = Some((rank(o), held, id));
            }
        }
        let Some((_, held, id)) = best else {
            return dword(self.error());
        };
        Self::write(vars, args, 1, Value::Float(held))?;
        dword(id)
    }

    /// The clan's own building with the least held against it (function
    /// 37): the fewest hostile units within [`FACTORY_WATCH`] of it, the
    /// lowest id among equals; that strength written out. `ERROR` for none.
    // STAND-IN: the radius the original weighs a building's threat over is
    // not read; ours is the radar's reach, as function 67's.
    fn weakest_building(&self, vars: &mut Variables, args: &[i32]) -> Answer {
        let clan = self.brain.clan;
        let against = |o: &Seen| self.strength(|c| self.view.hostile(clan, c), o.at, FACTORY_WATCH);
        let found = self
            .view
            .objects
            .iter()
            .filter(|(_, o)| o.type_word & CLASS_BUILDING != 0 && !o.destroyed && o.clan == clan)
            .map(|(&id, o)| (against(o), id))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let Some((held, id)) = found else {
            return dword(self.error());
        };
        Self::write(vars, args, 0, Value::Float(held))?;
        dword(id)
    }

    /// The mineral place to mine (function 40): of the mission's found
    /// lodes with no standing building within [`LODE_CLAIM`], the one with
    /// the fewest hostile units within [`FACTORY_WATCH`] (the first in
    /// file order among equals); its x, y and that strength written out,
    /// 1 answered. `ERROR` for none.
    // STAND-IN: the original's list is the system areal map's places
    // (slots 25 and 26), "unclaimed" and the strength's radius are not
    // read (docs/15 "Places and targets"); ours are the TMA's found lodes,
    // no building near, the radar's reach.
    fn mineral_place(&self, vars: &mut Variables, args: &[i32]) -> Answer {
        let clan = self.brain.clan;
        let claimed = |at: [f32; 2]| {
            self.view.objects.values().any(|o| {
                o.type_word & CLASS_BUILDING != 0
                    && !o.destroyed
                    && distance(o.at, at) <= LODE_CLAIM
            })
        };
        let hostile = |c: u32| self.view.hostile(clan, c);
        let found = self
            .view
            .lodes
            .iter()
            .filter(|at| !claimed(**at))
            .map(|at| (self.strength(hostile, *at, FACTORY_WATCH), *at))
            .reduce(|best, next| if next.0 < best.0 { next } else { best });
        let Some((held, [x, y])) = found else {
            return dword(self.error());
        };
        Self::write(vars, args, 0, Value::Float(x))?;
        Self::write(vars, args, 1, Value::Float(y))?;
        Self::write(vars, args, 2, Value::Float(held))?;
        dword(1)
    }

    /// The clan's factory (its standing one of the lowest id), with the
    /// strength around it written to the out operand (function 67);
    /// `ERROR` when it has none.
    fn factory(&self, vars: &mut Variables, args: &[i32]) -> Answer {
        let clan = self.brain.clan;
        let found = self
            .view
            .objects
            .iter()
            .find(|(_, o)| o.factory() && o.clan == clan && !o.destroyed);
        let Some((id, factory)) = found else {
            return dword(self.error());
        };
        let hostile = |c: u32| self.view.hostile(clan, c);
        let near = self.strength(hostile, factory.at, FACTORY_WATCH);
        Self::write(vars, args, 0, Value::Float(near))?;
        dword(*id)
    }

    /// Writes `value` into the variable operand `i` (an out operand).
    fn write(vars: &mut Variables, args: &[i32], i: usize, value: Value) -> Result<(), CallError> {
        let v = *args
            .get(i)
            .ok_or_else(|| fault(format!("operand {i} is missing")))?;
        vars.set(v as u32, value).map_err(fault)
    }

    /// Raises a problem (function 2): (code, weight, a, b, p1, p2, p3).
    fn raise(&mut self, vars: &Variables, args: &[i32]) -> Answer {
        let code_var = *args.first().ok_or_else(|| fault("no problem code"))? as u32;
        let name = self
            .brain
            .bundle
            .vars
            .get(code_var)
            .map(|v| v.name.clone())
            .ok_or_else(|| fault(format!("variable {code_var} is past varset.var")))?;
        let mut words = [0u32; 7];
        for (i, w) in words.iter_mut().enumerate().skip(1) {
            if let Some(&a) = args.get(i) {
                *w = vars.get(a as u32).map_err(fault)?.dword();
            }
        }
        let weight = match args.get(1) {
            Some(&a) => vars.get(a as u32).map_err(fault)?.float(),
            None => 0.0,
        };
        let code = vars.get(code_var).map_err(fault)?.dword();
        let (Some(start), Some(cont)) = (
            self.brain.handler(&format!("{name}_Start")),
            self.brain.handler(&format!("{name}_Continue")),
        ) else {
            return Ok(None); // not raised without both handlers
        };
        let params = [words[4], words[5], words[6]];
        let standing = self
            .brain
            .problems
            .iter()
            .any(|p| p.code == code && p.params[..2] == params[..2]);
        if !standing {
            self.brain.problems.push(Problem {
                name,
                code,
                weight,
                numbers: [words[2], words[3]],
                params,
                state: 0,
                handlers: [start, cont],
                started: false,
                units: Vec::new(),
                groups: Vec::new(),
                actions: Vec::new(),
            });
        }
        Ok(None)
    }

    /// Opens a group in the running problem (function 25).
    fn group(&mut self, vars: &mut Variables, args: &[i32]) -> Answer {
        let mode = vars
            .get(*args.first().ok_or_else(|| fault("no TAKE_ word"))? as u32)
            .map_err(fault)?
            .dword();
        let running_code = self.running()?.code;
        let members: Vec<u32> = if self.is(mode, "TAKE_ALL_FREE") {
            self.units(None, |id| self.available(id, false))
        } else if self.is(mode, "TAKE_ALL_BATTLE_UNITS") {
            let other_code = |id: u32| {
                self.brain
                    .problems
                    .iter()
                    .find(|p| p.holds(id))
                    .is_some_and(|p| p.code != running_code)
            };
            self.units(None, |id| {
                !self.brain.reserved.contains(&id) && (!self.brain.busy(id) || other_code(id))
            })
        } else if self.is(mode, "TAKE_BY_HITS") {
            let amount = vars
                .get(args.get(1).copied().unwrap_or(-1) as u32)
                .map_err(fault)?
                .float();
            let kind = vars
                .get(args.get(2).copied().unwrap_or(-1) as u32)
                .map_err(fault)?
                .dword();
            let target = self.target(vars, kind, &args[3.min(args.len())..])?;
            let from = self.target_at(target);
            let mut picked: Vec<u32> = self.units(from, |id| self.available(id, false));
            picked.extend(self.units(from, |id| self.brain.busy(id) && self.available(id, true)));
            // STAND-IN: a unit's strength is 1, so `amount` counts units
            // (the original's strength helper is not read, docs/15); settled
            // by reading that helper.
            picked.truncate(amount.max(0.0).ceil() as usize);
            if (picked.len() as f32) < amount {
                Self::write(vars, args, 1, Value::Float(picked.len() as f32))?;
            }
            picked
        } else {
            return Err(fault(format!("{mode:#x} is no TAKE_ word of varset.var")));
        };
        if members.is_empty() {
            return dword(self.error());
        }
        for &id in &members {
            self.brain.detach(id);
        }
        let problem = self.running()?;
        problem.groups.push(members);
        dword(problem.groups.len() as u32 - 1)
    }

    /// Picks a unit (functions 13 and 14).
    fn pick(&mut self, vars: &Variables, args: &[i32], slot: u32) -> Answer {
        let arg = |i: usize| -> Result<u32, CallError> {
            let v = *args
                .get(i)
                .ok_or_else(|| fault(format!("operand {i} is missing")))?;
            Ok(vars.get(v as u32).map_err(fault)?.dword())
        };
        let mode = arg(0)?;
        let typed = |mask: u32| move |o: &crate::view::Seen| o.type_word & mask != 0;
        let found = if slot == 13 {
            let mask = arg(1).unwrap_or(u32::MAX);
            let lighter = self.is(mode, "UNIT_ANY_UNIT");
            // STAND-IN: every unit can capture (the size check, size class 2
            // at most, is not done; docs/15 "What the functions do");
            // settled by reading function 13's capturer test.
            let free_capturer = self.is(mode, "UNIT_FREE_CAPTURER");
            self.units(None, |id| {
                self.available(id, lighter)
                    && (free_capturer || self.view.objects.get(&id).is_some_and(typed(mask)))
            })
            .first()
            .copied()
        } else if self.is(mode, "UNIT_ANY_UNIT") {
            let mask = arg(1)?;
            self.units(None, |id| {
                self.available(id, true) && self.view.objects.get(&id).is_some_and(typed(mask))
            })
            .first()
            .copied()
        } else {
            // STAND-IN: function 14's nearest capturer is the nearest by
            // straight distance (the original's helper is not read, docs/15);
            // settled by reading that helper.
            let nearest = self.is(mode, "UNIT_ANY_NEAREST_CAPTURER");
            let from = if nearest {
                let target = self.target(vars, arg(1)?, &args[2.min(args.len())..])?;
                self.target_at(target)
            } else {
                None
            };
            self.units(from, |id| self.available(id, true))
                .first()
                .copied()
        };
        dword(found.unwrap_or_else(|| self.error()))
    }

    /// The nearest enemy of the clan's base (functions 36 and 71): writes
    /// the distance into the last operand.
    fn nearest_enemy(&mut self, vars: &mut Variables, args: &[i32], mask: Option<u32>) -> Answer {
        // STAND-IN: a distance "of the clan" is from its base centre (docs/15
        // names the clan, not the point); settled by reading functions 36,
        // 47 and 71's helper.
        let from = self.view.base(self.brain.clan);
        let found = self
            .view
            .enemies_near(self.brain.clan, from, mask)
            .first()
            .copied();
        let Some((id, d)) = found else {
            return dword(self.error());
        };
        Self::write(vars, args, args.len().saturating_sub(1), Value::Float(d))?;
        dword(id)
    }
}

impl Host for Call<'_> {
    fn error_word(&self) -> u32 {
        self.error()
    }

    fn unimplemented(&mut self, handler: usize, node: usize, function: u32) {
        self.unimplemented.push((handler, node, function));
    }

    fn call(&mut self, vars: &mut Variables, function: u32, args: &[i32]) -> Answer {
        let arg = |i: usize| -> Result<Value, CallError> {
            let v = *args
                .get(i)
                .ok_or_else(|| fault(format!("operand {i} is missing")))?;
            vars.get(v as u32).map_err(fault)
        };
        let clan = self.brain.clan;
        match function {
            // Stubs in the original: 0 answers 1, 1 and 9 do nothing.
            0 => dword(1),
            1 | 9 => Ok(None),
            2 => self.raise(vars, args),
            67 => self.factory(vars, args),
            35 => self.building_to_capture(vars, args),
            37 => self.weakest_building(vars, args),
            40 => self.mineral_place(vars, args),
            66 => {
                let Some(o) = self.view.objects.get(&arg(0)?.dword()).copied() else {
                    return dword(self.error());
                };
                let share = match o.role {
                    Some(Role::Generator) => GENERATOR_SHARE,
                    Some(Role::Plant) => FACTORY_SHARE,
                    _ => 0.0,
                };
                Self::write(vars, args, 1, Value::Float(share))?;
                dword(o.type_word)
            }
            38 => {
                let (c, which) = (arg(0)?.dword(), arg(1)?.dword());
                let free = self.is(which, "FREE_UNITS");
                if !free && !self.is(which, "ALL_UNITS") {
                    return dword(self.error());
                }
                // STAND-IN: a unit's strength is 1, so the sum counts the
                // units; whether another clan's are free is its own brain's
                // business, so all of them count (docs/15 "Units").
                let n = self
                    .view
                    .objects
                    .iter()
                    .filter(|(_, o)| o.unit && !o.destroyed && o.clan == c)
                    .filter(|(id, _)| !free || c != clan || self.available(**id, false))
                    .count();
                Ok(Some(Value::Float(n as f32)))
            }
            3 => {
                let net = self.view.net_power.get(&clan).copied().unwrap_or(0.0);
                Ok(Some(Value::Float(net)))
            }
            16 | 17 => {
                let (type_word, resource) = (arg(0)?.dword(), arg(1)?.dword());
                if !self.is(resource, "RESOURCE_LEFT_ORE") {
                    return dword(self.error());
                }
                let held = |o: &Seen| if function == 16 { o.ore_room } else { o.ore };
                let sum = self
                    .view
                    .objects
                    .values()
                    .filter(|o| !o.destroyed && o.clan == clan && o.type_word == type_word)
                    .map(held)
                    .sum();
                Ok(Some(Value::Float(sum)))
            }
            6 => {
                let (id, critical) = (arg(0)?.dword(), arg(1)?.dword());
                let critical = self.is(critical, "UNIT_CRITICAL");
                self.brain.detach(id);
                self.running()?.units.push((id, critical));
                Ok(None)
            }
            7 => {
                self.running()?.release();
                Ok(None)
            }
            8 => {
                let state = arg(0)?.dword();
                let ends = self.is(state, "ST_SOLVED") || self.is(state, "ST_UNSOLVED");
                let p = self.running()?;
                if ends {
                    p.release();
                }
                p.state = state;
                Ok(None)
            }
            12 => Ok(Some(Value::Float(self.running()?.weight))),
            13 | 14 => self.pick(vars, args, function),
            15 => {
                let id = arg(0)?.dword();
                let packet = self.packet(vars, &args[1.min(args.len())..])?;
                dword(self.order(id, packet))
            }
            19 => {
                let [x, y] = self.view.base(clan);
                Self::write(vars, args, 0, Value::Float(x))?;
                Self::write(vars, args, 1, Value::Float(y))?;
                Self::write(vars, args, 2, Value::Dword(clan))?;
                Ok(None)
            }
            24 => {
                let g = arg(0)?.dword() as usize;
                if let Some(group) = self.running()?.groups.get_mut(g) {
                    group.clear();
                }
                Ok(None)
            }
            25 => self.group(vars, args),
            27 => {
                let record = [
                    arg(0)?.dword(),
                    arg(1)?.dword(),
                    arg(2).map_or(0, Value::dword),
                ];
                self.running()?.actions.push(record);
                Ok(None)
            }
            28 => {
                let g = arg(0)?.dword() as usize;
                let packet = self.packet(vars, &args[1.min(args.len())..])?;
                let members = self.running()?.groups.get(g).cloned().unwrap_or_default();
                let taken = members
                    .iter()
                    .filter(|&&id| self.order(id, packet) == 1)
                    .count();
                dword(u32::from(!members.is_empty() && taken == members.len()))
            }
            29 => {
                let k = arg(0)?.dword() as usize;
                let error = self.error();
                let p = self.running().ok();
                dword(p.and_then(|p| p.params.get(k).copied()).unwrap_or(error))
            }
            30 | 57 => {
                self.channel.push(ChannelCall {
                    channel: if function == 30 { 0 } else { 2 },
                    kind: arg(0)?.dword(),
                    value: arg(1)?.dword(),
                });
                Ok(None)
            }
            31 => {
                let (c, mask) = (arg(0)?.dword(), arg(1)?.dword());
                let n = self
                    .view
                    .objects
                    .values()
                    .filter(|o| !o.destroyed && o.clan == c && o.type_word & mask != 0)
                    .count();
                dword(n as u32)
            }
            32 => {
                let (route, id) = (arg(0)?.dword() as usize, arg(1)?.dword());
                let listed = self
                    .view
                    .routes
                    .lists(route, iron3d_world::OriginalObjectId(id));
                dword(u32::from(listed))
            }
            33 => {
                let n = arg(0)?.dword();
                let handler = self.brain.handler(&format!("Problems{n}"));
                self.brain.problem_handler =
                    Some(handler.ok_or_else(|| fault(format!("no handler Problems{n}")))?);
                Ok(None)
            }
            34 => {
                let type_word = arg(0)?.dword();
                let n = self
                    .view
                    .objects
                    .values()
                    .filter(|o| !o.destroyed && o.clan == clan && o.type_word == type_word)
                    .count();
                dword(n as u32)
            }
            36 => self.nearest_enemy(vars, args, None),
            39 => dword(u32::from(self.view.objects.contains_key(&arg(0)?.dword()))),
            44 => {
                let c = arg(1)?.dword();
                let target = self.target(vars, arg(2)?.dword(), &args[3.min(args.len())..])?;
                match self.target_at(target) {
                    Some(at) => Ok(Some(Value::Float(distance(self.view.base(c), at)))),
                    None => dword(self.error()),
                }
            }
            47 => {
                let range = arg(0)?.float();
                let from = self.view.base(clan);
                let defended: Vec<u32> = self
                    .brain
                    .problems
                    .iter()
                    .filter(|p| p.name == "PBM_BASE_DEFENCE")
                    .map(|p| p.params[0])
                    .collect();
                let near: Vec<u32> = self
                    .view
                    .enemies_near(clan, from, None)
                    .into_iter()
                    .filter(|&(id, d)| d <= range && !defended.contains(&id))
                    .map(|(id, _)| id)
                    .collect();
                let hero = self.view.hero().filter(|h| near.contains(h));
                match hero.or(near.first().copied()) {
                    Some(id) => {
                        // STAND-IN: the threat's strength is 1, as a unit's
                        // (the strength helper is not read, docs/15); settled
                        // by reading that helper.
                        Self::write(vars, args, 1, Value::Float(1.0))?;
                        dword(id)
                    }
                    None => dword(self.error()),
                }
            }
            51 => {
                let (id, on) = (arg(0)?.dword(), arg(1)?.dword());
                if self.is(on, "TRUE") {
                    self.brain.detach(id);
                    self.brain.reserved.insert(id);
                } else {
                    self.brain.reserved.remove(&id);
                }
                Ok(None)
            }
            52 => {
                let id = arg(0)?.dword();
                dword(self.view.owner(id).unwrap_or_else(|| self.error()))
            }
            59 => dword(self.brain.seconds.wrapping_add(arg(0)?.dword())),
            60 => {
                let due = self.brain.seconds >= arg(0)?.dword();
                dword(if due { 1 } else { self.error() })
            }
            61 => {
                let id = arg(0)?.dword();
                dword(
                    self.view
                        .objects
                        .get(&id)
                        .map_or_else(|| self.error(), |o| o.type_word),
                )
            }
            62 => {
                let w = arg(0)?.float();
                self.running()?.weight = w;
                Ok(None)
            }
            70 => {
                let n = arg(0)?.dword();
                let r = self.rng.next_u64(RANDOM_STREAM);
                dword(if n == 0 { 0 } else { (r % u64::from(n)) as u32 })
            }
            71 => {
                let mask = arg(1)?.dword();
                self.nearest_enemy(vars, args, Some(mask))
            }
            _ => Err(CallError::Unimplemented),
        }
    }
}
