//! `pq-sat enumerate`: every placement of a problem at one size, or one per orbit; its run
//! is [`pq_ops::enumerate`].

use anyhow::Result;

mod args;

pub(crate) use args::{EnumerateArgs, EnumerateJob};

impl super::Job for EnumerateJob {
    fn run(self: Box<Self>) -> Result<u8> {
        let EnumerateJob { plan, args } = *self;
        pq_ops::enumerate::run(plan, args.count, args.report.format.into())
    }
}
